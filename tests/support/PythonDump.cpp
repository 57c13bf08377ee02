// Runs a dump script into a temporary folder and reads its meta.json and per-channel float64 files.
#include "support/PythonDump.h"

#include "support/TestSupport.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <unistd.h>

namespace lv::test {

PythonDump runPythonDump(const std::string& script, const std::string& file)
{
    static int counter = 0;
    const std::filesystem::path out = std::filesystem::temp_directory_path() /
                                      ("lv-dump-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    std::string output;
    const int status = run("/usr/bin/python3 '" + script + "' '" + file + "' '" + out.string() + "' 2>&1", &output);
    PythonDump dump;
    EXPECT_EQ(status, 0) << output;
    if (status != 0) return dump;
    std::ifstream meta(out / "meta.json");
    dump.meta = nlohmann::json::parse(meta);
    for (std::size_t i = 0; i < dump.meta.at("channels").size(); ++i) {
        const auto bytes = readBytes(out / (std::to_string(i) + ".f64"));
        std::vector<double> v(bytes.size() / sizeof(double));
        std::memcpy(v.data(), bytes.data(), v.size() * sizeof(double));
        dump.values.push_back(std::move(v));
    }
    std::filesystem::remove_all(out);
    return dump;
}

} // namespace lv::test
