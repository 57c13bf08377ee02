// Irregular channels on a grid: the last value before each grid point, held at most the hold time, never across a
// longer silence; invalid samples stay missing; a grid channel passes through.
#include "convert/ResampledRecording.h"

#include "support/IrregularRecording.h"

#include <gtest/gtest.h>

using namespace lv;
using lv::convert::ResampledRecording;

namespace {

constexpr std::int64_t kBase = 1'000'000'000'000; // ns: 1e9 us after 1970
constexpr std::int32_t kNo = core::kNoSample;

std::unique_ptr<test::IrregularRecording> canSignal()
{
    auto r = std::make_unique<test::IrregularRecording>();
    // ms: 0, 1, 2, 3.5, 4 (invalid), then 56 ms of silence, 60, 61
    r->addChannel("can",
                  {kBase, kBase + 1'000'000, kBase + 2'000'000, kBase + 3'500'000, kBase + 4'000'000,
                   kBase + 60'000'000, kBase + 61'000'000},
                  {10, 20, 30, 40, kNo, 70, 80}, 3);
    return r;
}

std::vector<std::int32_t> readAll(core::Recording& r, std::size_t channel)
{
    std::vector<std::int32_t> out(static_cast<std::size_t>(r.info().channels[channel].gridLength));
    const core::RawSlice slice{channel, 0, out};
    const core::Status s = r.readRaw({&slice, 1}, {});
    EXPECT_TRUE(s.ok()) << s.error().describe();
    return out;
}

} // namespace

TEST(ResampledRecording, EachGridPointTakesTheLastValueHeldAtMostTenMedianIntervals)
{
    auto r = ResampledRecording::create(canSignal(), {1000.0, 0}, {0}, {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const core::ChannelInfo& ch = (*r)->info().channels[0];
    EXPECT_FALSE(ch.irregular);
    EXPECT_EQ(ch.fs, 1000.0);
    EXPECT_EQ(ch.start, 1'000'000'000);
    ASSERT_EQ(ch.gridLength, 71); // the last value (61 ms) is held until 71 ms, exclusive
    EXPECT_EQ(ch.sampleCount, 14 + 11);
    ASSERT_EQ(ch.segments.size(), 2u);
    EXPECT_EQ(ch.segments[0], (core::TimeRange{1'000'000'000, 1'000'014'000})); // 4 ms + the 10 ms hold
    EXPECT_EQ(ch.segments[1], (core::TimeRange{1'000'060'000, 1'000'071'000}));
    ASSERT_EQ(ch.gaps.size(), 1u);
    EXPECT_EQ(ch.gaps[0], (core::TimeRange{1'000'014'000, 1'000'060'000}));
    std::vector<std::int32_t> want(71, kNo);
    want[0] = 10, want[1] = 20, want[2] = 30, want[3] = 30; // 3 ms: the 2 ms value (3.5 ms comes later)
    for (int j = 60; j < 71; ++j) want[j] = j == 60 ? 70 : 80;
    EXPECT_EQ(readAll(**r, 0), want);
    ASSERT_EQ((*r)->notes().size(), 1u);
    EXPECT_EQ((*r)->notes()[0], "channel can: sampled at irregular times (median 1000 Hz), resampled to 1000 Hz, each "
                                "value held at most 0.01 s and never across a longer gap");
}

TEST(ResampledRecording, AShortHoldLeavesGapsWhereTheSignalWasSilent)
{
    auto r = ResampledRecording::create(canSignal(), {1000.0, 2000}, {0}, {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const core::ChannelInfo& ch = (*r)->info().channels[0];
    ASSERT_EQ(ch.gridLength, 63);
    ASSERT_EQ(ch.segments.size(), 2u);
    EXPECT_EQ(ch.segments[0], (core::TimeRange{1'000'000'000, 1'000'006'000})); // the invalid 4 ms sample, held 2 ms
    EXPECT_EQ(ch.segments[1], (core::TimeRange{1'000'060'000, 1'000'063'000}));
    const std::vector<std::int32_t> got = readAll(**r, 0);
    EXPECT_EQ(std::vector<std::int32_t>(got.begin(), got.begin() + 6),
              (std::vector<std::int32_t>{10, 20, 30, 30, kNo, kNo}));
    EXPECT_EQ(got[60], 70);
    EXPECT_EQ(got[62], 80);
}

TEST(ResampledRecording, AValueHeldExactlyTheHoldIsGone)
{
    auto r = ResampledRecording::create(canSignal(), {1000.0, 1000}, {0}, {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const core::ChannelInfo& ch = (*r)->info().channels[0];
    ASSERT_EQ(ch.segments.size(), 3u);
    EXPECT_EQ(ch.segments[0], (core::TimeRange{1'000'000'000, 1'000'003'000}));
    EXPECT_EQ(ch.segments[1], (core::TimeRange{1'000'004'000, 1'000'005'000}));
    EXPECT_EQ(ch.segments[2], (core::TimeRange{1'000'060'000, 1'000'062'000}));
    const std::vector<std::int32_t> got = readAll(**r, 0);
    EXPECT_EQ(std::vector<std::int32_t>(got.begin(), got.begin() + 6),
              (std::vector<std::int32_t>{10, 20, 30, kNo, kNo, kNo}));
}

TEST(ResampledRecording, ReadsInPiecesAsInOneAndAtAFinerRate)
{
    auto r = ResampledRecording::create(canSignal(), {4096.0, 0}, {0}, {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const std::vector<std::int32_t> whole = readAll(**r, 0);
    const core::ChannelInfo& ch = (*r)->info().channels[0];
    EXPECT_EQ(ch.start, 1'000'000'000);
    std::vector<std::int32_t> pieces(whole.size(), 7);
    for (std::size_t at = 0; at < pieces.size(); at += 37) {
        const std::size_t n = std::min<std::size_t>(37, pieces.size() - at);
        const core::RawSlice slice{0, static_cast<std::int64_t>(at), std::span(pieces).subspan(at, n)};
        ASSERT_TRUE((*r)->readRaw({&slice, 1}, {}).ok());
    }
    EXPECT_EQ(pieces, whole);
    const core::SampleGrid grid = ch.grid();
    const auto source = canSignal();
    const std::vector<std::int64_t>& times = source->channels[0].timesNs;
    const std::vector<std::int32_t>& counts = source->channels[0].counts;
    for (std::size_t j = 0; j < whole.size(); ++j) { // brute force: the last sample at or before, less than 10 ms old
        const std::int64_t t = core::usToNs(grid.timeOf(static_cast<std::int64_t>(j)));
        std::int32_t expected = kNo;
        for (std::size_t i = 0; i < times.size(); ++i)
            if (times[i] <= t && t - times[i] < 10'000'000) expected = counts[i];
        ASSERT_EQ(whole[j], expected) << "grid point " << j;
    }
}

TEST(ResampledRecording, AnAbsurdRateIsRefused)
{
    auto r = ResampledRecording::create(canSignal(), {2e6, 0}, {0}, {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "the resampling rate 2e+06 Hz is not a usable sampling rate");
}
