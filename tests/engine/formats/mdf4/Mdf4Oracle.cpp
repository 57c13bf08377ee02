// mdf-check run from the tests and its dumps parsed (floats by strtod, texts as JSON strings).
#include "Mdf4Oracle.h"

#include "io/ByteSource.h"
#include "support/TestSupport.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lv::test::mdf4 {

std::string dataDir() { return std::string(LONGVIEW_TESTDATA) + "/mdf4"; }

std::string mdfCheck() { return std::string(LONGVIEW_TESTDATA) + "/../tools/mdf-check"; }

namespace {

std::string quoted(const std::string& s)
{
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

} // namespace

std::vector<DumpRow> parseDump(const std::string& csv)
{
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line); // time,value
    std::vector<DumpRow> rows;
    while (std::getline(in, line)) {
        const auto comma = line.find(',');
        DumpRow r;
        r.time = std::strtod(line.substr(0, comma).c_str(), nullptr);
        const std::string value = line.substr(comma + 1);
        if (value == "INVALID")
            r.invalid = true;
        else if (!value.empty() && value.front() == '"')
            r.text = nlohmann::json::parse(value).get<std::string>();
        else
            r.number = std::strtod(value.c_str(), nullptr);
        rows.push_back(std::move(r));
    }
    return rows;
}

std::vector<DumpRow> readDumpFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return parseDump(text.str());
}

std::vector<DumpRow> dump(const std::string& file, const std::string& channel, std::size_t group, int* status)
{
    std::string out;
    *status = lv::test::run(quoted(mdfCheck()) + " " + quoted(file) + " --dump " + quoted(channel) + " --group " +
                                std::to_string(group) + " 2>/dev/null",
                            &out);
    return parseDump(out);
}

std::string listingJson(const std::string& file)
{
    std::string out;
    lv::test::run(quoted(mdfCheck()) + " " + quoted(file) + " --json 2>/dev/null", &out);
    return out;
}

std::vector<Located> allChannels(const formats::mdf4::Structure& s)
{
    std::vector<Located> all;
    std::size_t number = 0;
    for (const auto& dg : s.dataGroups)
        for (const auto& g : dg.groups) {
            for (const auto& c : g.channels) all.push_back({&dg, &g, &c, number});
            ++number;
        }
    return all;
}

Located locate(const formats::mdf4::Structure& s, const std::string& name)
{
    for (const Located& l : allChannels(s))
        if (l.channel->name == name) return l;
    return {};
}

std::vector<std::pair<double, double>> numericDump(const std::string& path)
{
    std::vector<std::pair<double, double>> rows;
    for (const DumpRow& r : readDumpFile(path)) rows.emplace_back(r.time, r.invalid ? std::nan("") : r.number);
    return rows;
}

std::vector<std::uint8_t> referenceBytes(const std::string& name) { return readBytes(dataDir() + "/" + name); }

std::string structureError(std::vector<std::uint8_t> bytes, const std::string& path)
{
    auto s = formats::mdf4::readStructure(*io::memorySource(std::move(bytes), path));
    return s.ok() ? "no error" : s.error().describe();
}

formats::mdf4::Structure structureOf(const std::vector<std::uint8_t>& bytes, const std::string& path)
{
    auto s = formats::mdf4::readStructure(*io::memorySource(bytes, path));
    EXPECT_TRUE(s.ok()) << s.error().describe();
    return s.ok() ? *s : formats::mdf4::Structure{};
}

} // namespace lv::test::mdf4
