// Every channel of MDF 4 reference files with conversions and strings against mdf-check's dump, run at test time:
// physical numbers bit for bit, texts (value-to-text, range-to-text, strings, VLSD) exactly, invalid samples.
#include "Mdf4Oracle.h"

#include "formats/mdf4/Mdf4Data.h"
#include "formats/mdf4/Mdf4Text.h"
#include "io/ByteSource.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace lv::formats::mdf4;
namespace oracle = lv::test::mdf4;

namespace {

// The times of a channel's group: its master's values, else the record index (as mdf-check).
std::vector<double> timesOf(const lv::io::ByteSource& file, const oracle::Located& at,
                            const std::vector<std::uint8_t>& records)
{
    std::vector<double> times(at.group->cycleCount);
    for (std::size_t i = 0; i < times.size(); ++i) times[i] = static_cast<double>(i);
    for (const Channel& m : at.group->channels)
        if (m.isMaster()) {
            auto samples = channelSamples(file, *at.dg, *at.group, m, records);
            EXPECT_TRUE(samples.ok()) << samples.error().describe();
            if (samples.ok())
                for (std::size_t i = 0; i < times.size(); ++i) times[i] = samples->values[i].number;
            break;
        }
    return times;
}

// Our samples of one channel against rows of a dump; the number of rows compared.
void expectSameAsDump(const ChannelSamples& ours, const std::vector<double>& times,
                      const std::vector<oracle::DumpRow>& rows)
{
    ASSERT_EQ(ours.values.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ASSERT_EQ(times[i], rows[i].time) << "row " << i;
        ASSERT_EQ(static_cast<bool>(ours.invalid[i]), rows[i].invalid) << "row " << i;
        if (rows[i].invalid) continue;
        const Physical& v = ours.values[i];
        if (rows[i].text) {
            ASSERT_TRUE(v.isText()) << "row " << i << ": " << v.number << " instead of \"" << *rows[i].text << "\"";
            ASSERT_EQ(*v.text, *rows[i].text) << "row " << i;
        } else {
            ASSERT_FALSE(v.isText()) << "row " << i << ": \"" << *v.text << "\" instead of " << rows[i].number;
            if (std::isnan(rows[i].number)) {
                ASSERT_TRUE(std::isnan(v.number)) << "row " << i;
            } else {
                ASSERT_EQ(v.number, rows[i].number) << "row " << i;
            }
        }
    }
}

class Mdf4Oracle : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(Mdf4Oracle, EveryChannelEqualsMdfChecksDump)
{
    const std::string path = oracle::dataDir() + "/" + GetParam();
    auto file = lv::io::openFile(path);
    ASSERT_TRUE(file.ok()) << file.error().describe();
    auto s = readStructure(**file);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    std::size_t compared = 0, texts = 0;
    const DataGroup* loaded = nullptr;
    std::vector<std::uint8_t> records;
    for (const oracle::Located& at : oracle::allChannels(*s)) {
        SCOPED_TRACE(at.channel->name + " (group " + std::to_string(at.groupNumber) + ")");
        if (loaded != at.dg) {
            auto bytes = readDataGroupBytes(**file, *at.dg);
            ASSERT_TRUE(bytes.ok()) << bytes.error().describe();
            records = std::move(*bytes);
            loaded = at.dg;
        }
        int status = 0;
        const auto rows = oracle::dump(path, at.channel->name, at.groupNumber, &status);
        auto ours = channelSamples(**file, *at.dg, *at.group, *at.channel, records);
        if (status != 0) {
            EXPECT_FALSE(ours.ok()) << "mdf-check failed on this channel";
            continue;
        }
        ASSERT_TRUE(ours.ok()) << ours.error().describe();
        expectSameAsDump(*ours, timesOf(**file, at, records), rows);
        ++compared;
        for (const Physical& v : ours->values) texts += v.isText();
    }
    EXPECT_GT(compared, 0u);
    if (GetParam() != "Vector_Value2ValueConversionNoInterpolation.mf4" &&
        GetParam() != "Vector_RationalConversionRealParams.mf4") {
        EXPECT_GT(texts, 0u); // the files chosen for their texts have some
    }
}

INSTANTIATE_TEST_SUITE_P(Files, Mdf4Oracle,
                         ::testing::Values("ASAP2_Demo_V171.mf4", "Vector_Value2ValueConversionNoInterpolation.mf4",
                                           "Vector_RationalConversionRealParams.mf4", "Vector_SingleDZ_Unsorted.MF4",
                                           "asammdf_vlsd_virtual.mf4", "asammdf_two_rates_dz.mf4"),
                         [](const auto& info) {
                             std::string name = info.param;
                             for (char& ch : name)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return name;
                         });

// The asammdf dumps of texts (expected/*.csv, read in place) equal too.
TEST(Mdf4Oracle, TextsEqualAsammdfsDumps)
{
    const std::pair<const char*, const char*> cases[] = {{"Vector_SingleDZ_Unsorted.MF4", "Write"},
                                                         {"asammdf_vlsd_virtual.mf4", "label"},
                                                         {"asammdf_two_rates_dz.mf4", "state"}};
    for (const auto& [name, channel] : cases) {
        SCOPED_TRACE(std::string(name) + " " + channel);
        auto file = lv::io::openFile(oracle::dataDir() + "/" + name);
        ASSERT_TRUE(file.ok());
        auto s = readStructure(**file);
        ASSERT_TRUE(s.ok());
        const oracle::Located at = oracle::locate(*s, channel);
        ASSERT_NE(at.channel, nullptr);
        auto records = readDataGroupBytes(**file, *at.dg);
        ASSERT_TRUE(records.ok());
        auto ours = channelSamples(**file, *at.dg, *at.group, *at.channel, *records);
        ASSERT_TRUE(ours.ok()) << ours.error().describe();
        const std::string stem = std::string(name).substr(0, std::string(name).rfind('.'));
        const auto rows = oracle::readDumpFile(oracle::dataDir() + "/expected/" + stem + "__" + channel + ".csv");
        expectSameAsDump(*ours, timesOf(**file, at, *records), rows);
        if (at.channel->kind == ChannelKind::Vlsd) {
            auto texts = channelTexts(**file, *at.dg, *at.group, *at.channel, *records);
            ASSERT_TRUE(texts.ok()) << texts.error().describe();
            ASSERT_EQ(texts->size(), rows.size());
            for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ((*texts)[i], *rows[i].text);
        }
    }
}
