// Channel groups off any raster read as irregular channels: every sample's time and value against mdf-check's dump.
#include "Mdf4Oracle.h"

#include "formats/mdf4/Mdf4Recording.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace lv;
using namespace lv::formats::mdf4;
namespace oracle = lv::test::mdf4;

namespace {

// The channel group number in "channel group N (name)...".
std::size_t groupNumberOf(const core::ChannelInfo& ch)
{
    return static_cast<std::size_t>(std::stoul(ch.group.substr(std::string("channel group ").size())));
}

// The name in the file: the recording's name without the " [group d]" that keeps names unique.
std::string fileNameOf(const core::ChannelInfo& ch)
{
    const std::size_t at = ch.name.find(" [group ");
    return at == std::string::npos ? ch.name : ch.name.substr(0, at);
}

class Mdf4Irregular : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(Mdf4Irregular, EverySampleEqualsMdfChecksDumpAtItsOwnTime)
{
    const std::string path = oracle::dataDir() + "/" + GetParam();
    auto opened = openMdf4(path);
    ASSERT_TRUE(opened.ok()) << opened.error().describe();
    Mdf4Recording& r = **opened;
    const std::int64_t startNs = r.structure().startNs;
    std::size_t channels = 0, samples = 0;
    for (std::size_t c = 0; c < r.info().channels.size(); ++c) {
        const core::ChannelInfo& ch = r.info().channels[c];
        if (!ch.irregular) continue;
        SCOPED_TRACE(ch.name);
        int status = 0;
        const auto rows = oracle::dump(path, fileNameOf(ch), groupNumberOf(ch), &status);
        ASSERT_EQ(status, 0);
        ASSERT_EQ(ch.sampleCount, static_cast<std::int64_t>(rows.size()));
        ASSERT_EQ(ch.gridLength, ch.sampleCount);
        auto got = core::readTimed(r, c, {ch.start, ch.end}, {});
        ASSERT_TRUE(got.ok()) << got.error().describe();
        ASSERT_EQ(got->firstSample, 0);
        ASSERT_EQ(got->raw.size(), rows.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            ASSERT_EQ(got->timesNs[i], startNs + std::llround(rows[i].time * 1e9)) << "sample " << i;
            if (rows[i].invalid || (!rows[i].text && !std::isfinite(rows[i].number))) { // inf: missing, said
                ASSERT_EQ(got->raw[i], core::kNoSample) << "sample " << i;
                continue;
            }
            if (rows[i].text) continue; // a text conversion: its raw numbers are shown (a limit said at open)
            ASSERT_NE(got->raw[i], core::kNoSample) << "sample " << i;
            const double value = got->raw[i] * ch.conversionFactor + ch.offset;
            ASSERT_LE(std::abs(value - rows[i].number), ch.conversionFactor / 2) << "sample " << i;
        }
        ++channels;
        samples += rows.size();
    }
    EXPECT_GT(channels, 0u);
    EXPECT_GT(samples, 0u);
}

INSTANTIATE_TEST_SUITE_P(Files, Mdf4Irregular, ::testing::Values("ASAP2_Demo_V171.mf4", "Vector_SingleDZ_Unsorted.MF4"),
                         [](const auto& info) {
                             std::string name = info.param;
                             for (char& ch : name)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return name;
                         });

TEST(Mdf4Irregular, AChannelGroupOffAnyRasterIsIrregularWithItsMedianRateAndItsTimeRange)
{
    auto opened = openMdf4(oracle::dataDir() + "/Vector_SingleDZ_Unsorted.MF4");
    ASSERT_TRUE(opened.ok()) << opened.error().describe();
    Mdf4Recording& r = **opened;
    const int c = r.info().channelIndex("WriteTextToWriteWindow");
    ASSERT_GE(c, 0);
    const core::ChannelInfo& ch = r.info().channels[static_cast<std::size_t>(c)];
    EXPECT_TRUE(ch.irregular);
    EXPECT_GE(ch.timeBase, 0);
    EXPECT_EQ(ch.sampleCount, 135);
    int status = 0;
    const auto rows = oracle::dump(oracle::dataDir() + "/Vector_SingleDZ_Unsorted.MF4", ch.name, 3, &status);
    ASSERT_EQ(rows.size(), 135u);
    const std::int64_t startNs = r.structure().startNs;
    EXPECT_EQ(ch.start, core::nsToUs(startNs + std::llround(rows.front().time * 1e9)));
    // A half-open range holds the samples at or after its start and before its end.
    const std::int64_t t10 = startNs + std::llround(rows[10].time * 1e9);
    const std::int64_t t20 = startNs + std::llround(rows[20].time * 1e9);
    auto span = r.samplesIn(static_cast<std::size_t>(c), {core::nsToUs(t10), core::nsToUs(t20)});
    ASSERT_TRUE(span.ok());
    EXPECT_EQ(span->first, 10);
    EXPECT_EQ(span->count, 10);
    const int grid = r.info().channelIndex("channel1"); // the 10 ms group keeps its grid
    ASSERT_GE(grid, 0);
    EXPECT_FALSE(r.info().channels[static_cast<std::size_t>(grid)].irregular);
}
