// Test helpers for CDF: reference files, cdf-check dumps, ISO times.
#include "CdfOracle.h"

#include "core/TimeFormat.h"
#include "io/ByteSource.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

#include <sstream>

namespace lv::test::cdf {

std::string dataDir() { return (testdata() / "cdf").string(); }

formats::cdf::CdfFile openReference(const std::string& name)
{
    auto source = io::openFile(dataDir() + "/" + name);
    EXPECT_TRUE(source.ok()) << name;
    auto file = formats::cdf::CdfFile::open(*source);
    if (!file) ADD_FAILURE() << file.error().describe();
    return file ? std::move(*file) : formats::cdf::CdfFile();
}

std::vector<DumpRow> parseDump(const std::string& csv)
{
    std::vector<DumpRow> rows;
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line); // record,value
    while (std::getline(in, line)) {
        const std::size_t comma = line.find(',');
        if (comma == std::string::npos) continue;
        DumpRow row;
        row.record = std::stoll(line.substr(0, comma));
        const std::string rest = line.substr(comma + 1);
        if (rest != "PAD") {
            std::istringstream values(rest);
            for (std::string v; values >> v;) row.values.push_back(v);
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<DumpRow> dump(const std::string& file, const std::string& variable, int* status)
{
    std::string out;
    *status = run((testdata().parent_path() / "tools" / "cdf-check").string() + " '" + file + "' --dump '" + variable +
                      "' 2>/dev/null",
                  &out);
    return parseDump(out);
}

std::optional<std::int64_t> isoToNs(const std::string& t)
{
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, used = 0;
    if (std::sscanf(t.c_str(), "%d-%d-%dT%d:%d:%d%n", &y, &mo, &d, &h, &mi, &s, &used) != 6) return std::nullopt;
    std::int64_t fraction = 0;
    std::size_t at = static_cast<std::size_t>(used);
    if (at < t.size() && t[at] == '.') {
        int digits = 0;
        for (++at; at < t.size() && std::isdigit(static_cast<unsigned char>(t[at])); ++at)
            if (digits++ < 9) fraction = fraction * 10 + (t[at] - '0');
        for (; digits < 9; ++digits) fraction *= 10;
    }
    const std::int64_t day = core::daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
    if (s == 60) return ((day + 1) * 86400) * 1000000000 - 1;
    return (day * 86400 + h * 3600 + mi * 60 + s) * std::int64_t{1000000000} + fraction;
}

} // namespace lv::test::cdf
