// Every reference session reads back exactly as its truth CSV: raw counts, scaled values, NaN places, times.
#include "support/TestSupport.h"

#include "core/Recording.h"
#include "formats/mef3/MefRecording.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

class Golden : public ::testing::TestWithParam<test::ManifestCase> {};

TEST_P(Golden, WholeChannelsMatchTruthExactly)
{
    const test::ManifestCase& c = GetParam();
    auto recording = openMef3((c.folder / (c.name + ".mefd")).string(), OpenOptions{c.password});
    ASSERT_TRUE(recording.ok()) << recording.error().describe();
    const core::RecordingInfo& info = (*recording)->info();
    const auto truth = test::readTruth(c.folder / (c.name + ".truth.csv"));
    ASSERT_EQ(info.channels.size(), c.channels.size());
    EXPECT_TRUE(info.timesKnown);
    for (const auto& [name, expected] : c.channels) {
        SCOPED_TRACE(name);
        const int index = info.channelIndex(name);
        ASSERT_GE(index, 0);
        const core::ChannelInfo& ch = info.channels[static_cast<std::size_t>(index)];
        EXPECT_EQ(ch.fs, expected.fs);
        EXPECT_EQ(ch.conversionFactor, expected.ufact);
        EXPECT_EQ(ch.start, expected.start);
        EXPECT_EQ(ch.end, expected.end);
        EXPECT_EQ(ch.gridLength, expected.samples);

        const std::size_t channels[] = {static_cast<std::size_t>(index)};
        auto samples = core::readRange(**recording, channels, {ch.start, ch.end}, {});
        ASSERT_TRUE(samples.ok()) << samples.error().describe();
        const core::ChannelSamples& got = samples->front();
        const std::vector<double> physical = core::toPhysical(got, ch.conversionFactor);
        const test::TruthChannel& t = truth.at(name);
        ASSERT_EQ(got.firstSample, 0);
        ASSERT_EQ(got.raw.size(), t.raw.size());
        std::size_t mismatches = 0;
        for (std::size_t i = 0; i < t.raw.size() && mismatches < 5; ++i) {
            const bool ok = t.raw[i] ? got.valid(i) && got.raw[i] == *t.raw[i] && physical[i] == *t.scaled[i]
                                     : !got.valid(i) && std::isnan(physical[i]);
            if (!ok) {
                ++mismatches;
                ADD_FAILURE() << "sample " << i << ": got " << got.raw[i] << " / " << physical[i] << ", truth "
                              << (t.raw[i] ? std::to_string(*t.raw[i]) : "nan");
            }
        }
    }
}

std::string caseName(const ::testing::TestParamInfo<test::ManifestCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Reference, Golden, ::testing::ValuesIn(test::allMefCases()), caseName);

// Gaps reported by the reader are exactly the NaN runs of the truth, in grid times.
TEST_P(Golden, GapsAreTheTruthNanRuns)
{
    const test::ManifestCase& c = GetParam();
    auto recording = openMef3((c.folder / (c.name + ".mefd")).string(), OpenOptions{c.password});
    ASSERT_TRUE(recording.ok()) << recording.error().describe();
    const auto truth = test::readTruth(c.folder / (c.name + ".truth.csv"));
    for (const core::ChannelInfo& ch : (*recording)->info().channels) {
        const auto& raw = truth.at(ch.name).raw;
        std::vector<core::TimeRange> expected;
        for (std::size_t i = 0; i < raw.size(); ++i) {
            if (raw[i]) continue;
            std::size_t j = i;
            while (j < raw.size() && !raw[j]) ++j;
            expected.push_back(
                {ch.grid().timeOf(static_cast<std::int64_t>(i)), ch.grid().timeOf(static_cast<std::int64_t>(j))});
            i = j;
        }
        EXPECT_EQ(ch.gaps, expected) << ch.name;
    }
}

} // namespace
} // namespace lv::formats::mef3
