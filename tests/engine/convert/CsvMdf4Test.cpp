// CSV export of real MDF 4 files with irregular channel groups: each group's table against mdf-check's dumps, time by
// time (ns) and value by value; a mixed file's grid table unchanged beside its irregular table.
#include "../formats/mdf4/Mdf4Oracle.h"

#include "convert/CsvExport.h"
#include "formats/mdf4/Mdf4Recording.h"
#include "support/TestSupport.h"

#include <cmath>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <sstream>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;
namespace oracle = lv::test::mdf4;

// A CSV table: the column names and the rows' cells, comment lines left out.
struct Table {
    std::vector<std::string> names;
    std::vector<std::vector<std::string>> rows;
};

std::vector<std::string> cells(const std::string& line)
{
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
    if (!line.empty() && line.back() == ',') out.emplace_back();
    return out;
}

Table readTable(const fs::path& file)
{
    std::ifstream in(file);
    Table t;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("#")) continue;
        if (t.names.empty())
            t.names = cells(line);
        else
            t.rows.push_back(cells(line));
    }
    return t;
}

std::string text(const fs::path& file)
{
    std::ifstream in(file);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// An exact decimal with up to 9 decimals ("12.5", "-0.000000001") scaled by 10^decimals, as an integer.
std::int64_t scaled(const std::string& cell, int decimals)
{
    const bool negative = cell.starts_with("-");
    const std::string body = negative ? cell.substr(1) : cell;
    const std::size_t dot = body.find('.');
    std::string fraction = dot == std::string::npos ? "" : body.substr(dot + 1);
    EXPECT_LE(fraction.size(), static_cast<std::size_t>(decimals)) << cell;
    fraction.resize(static_cast<std::size_t>(decimals), '0');
    const std::int64_t v =
        std::stoll(body.substr(0, dot)) * static_cast<std::int64_t>(std::pow(10, decimals)) + std::stoll(fraction);
    return negative ? -v : v;
}

std::size_t groupNumberOf(const core::ChannelInfo& ch)
{
    return static_cast<std::size_t>(std::stoul(ch.group.substr(std::string("channel group ").size())));
}

std::string fileNameOf(const core::ChannelInfo& ch)
{
    const std::size_t at = ch.name.find(" [group ");
    return at == std::string::npos ? ch.name : ch.name.substr(0, at);
}

// Every column of `table` (channels `channels` of `r`) against mdf-check's dump of its channel; `timeNs` turns a
// time cell into ns since 1970.
void expectDumps(formats::mdf4::Mdf4Recording& r, const std::string& path, const std::vector<std::size_t>& channels,
                 const Table& table, const std::function<std::int64_t(const std::string&)>& timeNs)
{
    const std::int64_t startNs = r.structure().startNs;
    ASSERT_EQ(table.names.size(), channels.size() + 1);
    for (std::size_t k = 0; k < channels.size(); ++k) {
        const core::ChannelInfo& ch = r.info().channels[channels[k]];
        SCOPED_TRACE(ch.name);
        ASSERT_EQ(table.names[k + 1], ch.name);
        int status = 0;
        const auto dump = oracle::dump(path, fileNameOf(ch), groupNumberOf(ch), &status);
        ASSERT_EQ(status, 0);
        ASSERT_EQ(table.rows.size(), dump.size());
        for (std::size_t i = 0; i < dump.size(); ++i) {
            const std::vector<std::string>& row = table.rows[i];
            ASSERT_EQ(row.size(), channels.size() + 1) << "row " << i;
            ASSERT_EQ(timeNs(row[0]), startNs + std::llround(dump[i].time * 1e9)) << "row " << i;
            if (dump[i].invalid || (!dump[i].text && !std::isfinite(dump[i].number))) {
                ASSERT_EQ(row[k + 1], "") << "row " << i;
                continue;
            }
            if (dump[i].text) continue; // a text conversion: its raw numbers are written (said at open)
            ASSERT_NE(row[k + 1], "") << "row " << i;
            // The cell identifies the stored count (CsvNumber), which is the dump's value to within half a step.
            const double cell = std::strtod(row[k + 1].c_str(), nullptr);
            const double count = std::round((cell - ch.offset) / ch.conversionFactor);
            ASSERT_LE(std::abs(count * ch.conversionFactor + ch.offset - dump[i].number), ch.conversionFactor / 2)
                << "row " << i << ": " << row[k + 1];
        }
    }
}

class CsvMdf4 : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!fs::exists(oracle::mdfCheck())) GTEST_SKIP() << "no " << oracle::mdfCheck();
    }
    test::TempDir dir;
};

TEST_F(CsvMdf4, AnIrregularGroupsTableIsMdfChecksDumpTimeByTimeAndValueByValue)
{
    const std::string path = oracle::dataDir() + "/ASAP2_Demo_V171.mf4";
    auto opened = formats::mdf4::openMdf4(path);
    ASSERT_TRUE(opened.ok()) << opened.error().describe();
    formats::mdf4::Mdf4Recording& r = **opened;
    CsvOptions o;
    for (std::size_t c = 0; c < r.info().channels.size(); ++c)
        if (r.info().channels[c].group.starts_with("channel group 2 (Engine_1)")) o.channels.push_back(c);
    ASSERT_EQ(o.channels.size(), 23u);
    o.range = {r.info().start, r.info().end};
    o.time = TimeColumn::Uutc;
    ASSERT_TRUE(exportCsv(r, o, (dir.path() / "e.csv").string(), {}).ok());
    EXPECT_FALSE(fs::exists(dir.path() / "e.1.csv")); // one group: its table is e.csv
    const Table table = readTable(dir.path() / "e.csv");
    ASSERT_EQ(table.rows.size(), 12402u);
    expectDumps(r, path, o.channels, table, [](const std::string& cell) { return scaled(cell, 3); });
}

TEST_F(CsvMdf4, AMixedFileGivesItsGridTableAsBeforeAndItsIrregularGroupsTable)
{
    const std::string path = oracle::dataDir() + "/Vector_SingleDZ_Unsorted.MF4";
    auto opened = formats::mdf4::openMdf4(path);
    ASSERT_TRUE(opened.ok()) << opened.error().describe();
    formats::mdf4::Mdf4Recording& r = **opened;
    const core::RecordingInfo& info = r.info();
    CsvOptions o;
    o.range = {info.start, info.end};
    ASSERT_TRUE(exportCsv(r, o, (dir.path() / "all.csv").string(), {}).ok());
    // The grid table is the export of the grid channels alone, byte for byte.
    CsvOptions gridOnly = o;
    std::vector<std::size_t> irregular;
    for (std::size_t c = 0; c < info.channels.size(); ++c)
        (info.channels[c].irregular ? irregular : gridOnly.channels).push_back(c);
    ASSERT_EQ(irregular.size(), 1u);
    ASSERT_EQ(gridOnly.channels.size(), 3u);
    ASSERT_TRUE(exportCsv(r, gridOnly, (dir.path() / "grid.csv").string(), {}).ok());
    EXPECT_EQ(text(dir.path() / "all.csv"), text(dir.path() / "grid.csv"));
    EXPECT_EQ(readTable(dir.path() / "all.csv").rows.size(), 1345u);
    // The irregular group in all.1.csv, its seconds counted from the recording's start.
    const std::string groupTable = text(dir.path() / "all.1.csv");
    EXPECT_TRUE(groupTable.starts_with("# units: WriteTextToWriteWindow=\ntime,WriteTextToWriteWindow\n"))
        << groupTable.substr(0, 200);
    const std::int64_t originNs = core::usToNs(info.start);
    expectDumps(r, path, irregular, readTable(dir.path() / "all.1.csv"),
                [originNs](const std::string& cell) { return originNs + scaled(cell, 9); });
}

TEST_F(CsvMdf4, ValueToTextChannelsAreWrittenAsTheirTexts)
{
    const std::string path = oracle::dataDir() + "/asammdf_two_rates_dz.mf4";
    auto opened = formats::mdf4::openMdf4(path);
    ASSERT_TRUE(opened.ok()) << opened.error().describe();
    formats::mdf4::Mdf4Recording& r = **opened;
    CsvOptions o;
    o.channels = {static_cast<std::size_t>(r.info().channelIndex("state")),
                  static_cast<std::size_t>(r.info().channelIndex("pressure"))};
    o.range = {r.info().start, r.info().end};
    ASSERT_TRUE(exportCsv(r, o, (dir.path() / "s.csv").string(), {}).ok());
    const Table table = readTable(dir.path() / "s.csv");
    const auto rows = oracle::readDumpFile(oracle::dataDir() + "/expected/asammdf_two_rates_dz__state.csv");
    ASSERT_EQ(table.rows.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ASSERT_TRUE(rows[i].text);
        ASSERT_EQ(table.rows[i].at(1), *rows[i].text) << "row " << i;
    }
    o.raw = true; // counts stay counts
    ASSERT_TRUE(exportCsv(r, o, (dir.path() / "raw.csv").string(), {}).ok());
    EXPECT_EQ(readTable(dir.path() / "raw.csv").rows.at(0).at(1), "0");
}

} // namespace
} // namespace lv::convert
