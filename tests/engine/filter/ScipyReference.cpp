// Runs scipy_filter.py with /usr/bin/python3 on a JSON file in a temporary folder.
#include "ScipyReference.h"

#include "support/TestSupport.h"

#include <fstream>

namespace lv::test {

nlohmann::json scipyFilter(double fs, const nlohmann::json& filters, const std::vector<double>& freqs,
                           const std::vector<double>& signal)
{
    TempDir dir;
    const std::string in = (dir.path() / "in.json").string();
    std::ofstream(in) << nlohmann::json{{"fs", fs}, {"filters", filters}, {"freqs", freqs}, {"signal", signal}};
    std::string out;
    if (run("/usr/bin/python3 " + std::string(LONGVIEW_FILTER_REFERENCE) + " " + in, &out) != 0) return nullptr;
    return nlohmann::json::parse(out, nullptr, false);
}

} // namespace lv::test
