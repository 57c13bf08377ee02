// Irregular sample times: median interval, segments split at long intervals, and the sample spans of time ranges.
#include "core/IrregularTimes.h"
#include "core/Recording.h"

#include <gtest/gtest.h>

using namespace lv::core;

TEST(IrregularTimes, SegmentsSplitWhereSamplesAreTenMedianIntervalsApart)
{
    // 1 ms apart (median), then 9.999 ms (joined), then 10 ms (a gap), then 50 ms (a gap).
    const std::vector<std::int64_t> t{1'000'000,  2'000'000,  3'000'000,  12'999'000,
                                      13'999'000, 23'999'500, 24'999'500, 74'999'500};
    const IrregularLayout layout = layoutOfTimes(t, kIrregularGapFactor);
    EXPECT_EQ(layout.medianIntervalNs, 1e6);
    EXPECT_EQ(layout.fs, 1000.0);
    ASSERT_EQ(layout.segments.size(), 3u);
    EXPECT_EQ(layout.segments[0], (TimeRange{1000, 13'999 + 1}));
    EXPECT_EQ(layout.segments[1], (TimeRange{23'999, 24'999 + 1})); // ns times fall in their microsecond
    EXPECT_EQ(layout.segments[2], (TimeRange{74'999, 75'000}));
    ASSERT_EQ(layout.gaps.size(), 2u);
    EXPECT_EQ(layout.gaps[0], (TimeRange{14'000, 23'999}));
    EXPECT_EQ(layout.gaps[1], (TimeRange{25'000, 74'999}));
}

TEST(IrregularTimes, OneSampleIsOneSegmentOfAMicrosecond)
{
    const std::vector<std::int64_t> t{-1500};
    const IrregularLayout layout = layoutOfTimes(t, kIrregularGapFactor);
    EXPECT_EQ(layout.fs, 1.0);
    ASSERT_EQ(layout.segments.size(), 1u);
    EXPECT_EQ(layout.segments[0], (TimeRange{-2, -1})); // before 1970, rounded down
    EXPECT_TRUE(layout.gaps.empty());
    EXPECT_EQ(medianInterval(std::span<const std::int64_t>()), 0.0);
}

namespace {

// An irregular channel that only gives its times: samplesIn is the default's bisection.
class TimesOnly final : public Recording {
public:
    explicit TimesOnly(std::vector<std::int64_t> times) : m_times(std::move(times))
    {
        ChannelInfo ch;
        ch.name = "can";
        ch.irregular = true;
        ch.sampleCount = ch.gridLength = static_cast<std::int64_t>(m_times.size());
        m_info.channels.push_back(ch);
    }
    const RecordingInfo& info() const override { return m_info; }
    Status readRaw(std::span<const RawSlice> slices, const ReadControl&) override
    {
        for (const RawSlice& s : slices)
            for (std::size_t i = 0; i < s.out.size(); ++i) s.out[i] = static_cast<std::int32_t>(s.firstSample + i);
        return {};
    }
    Status readTimes(std::span<const TimeSlice> slices, const ReadControl&) override
    {
        ++timeReads;
        for (const TimeSlice& s : slices)
            for (std::size_t i = 0; i < s.outNs.size(); ++i) s.outNs[i] = m_times.at(s.firstSample + i);
        return {};
    }
    int timeReads = 0;

private:
    std::vector<std::int64_t> m_times;
    RecordingInfo m_info;
};

} // namespace

TEST(IrregularTimes, TheSamplesOfAHalfOpenRangeAreFoundByBisection)
{
    TimesOnly r({1000, 1999, 2000, 2000, 2001, 5000, 9000});
    auto span = r.samplesIn(0, {2, 5}); // [2000, 5000) ns
    ASSERT_TRUE(span.ok());
    EXPECT_EQ(span->first, 2);
    EXPECT_EQ(span->count, 3);
    EXPECT_LE(r.timeReads, 8); // two bisections of 7 samples
    auto all = readTimed(r, 0, {-100, 100}, {});
    ASSERT_TRUE(all.ok());
    EXPECT_EQ(all->timesNs, (std::vector<std::int64_t>{1000, 1999, 2000, 2000, 2001, 5000, 9000}));
    EXPECT_EQ(all->raw, (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6}));
    auto none = r.samplesIn(0, {10, 20});
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none->first, 7);
    EXPECT_EQ(none->count, 0);
}

TEST(IrregularTimes, AnIrregularChannelWithoutTimesIsAnErrorNotAGrid)
{
    class NoTimes final : public Recording {
    public:
        NoTimes()
        {
            ChannelInfo ch;
            ch.name = "can";
            ch.irregular = true;
            ch.sampleCount = ch.gridLength = 3;
            m_info.channels.push_back(ch);
            m_info.path = "x.mf4";
        }
        const RecordingInfo& info() const override { return m_info; }
        Status readRaw(std::span<const RawSlice>, const ReadControl&) override { return {}; }
        RecordingInfo m_info;
    } r;
    auto span = r.samplesIn(0, {0, 10});
    ASSERT_FALSE(span.ok());
    EXPECT_EQ(span.error().describe(), "x.mf4: channel can is irregular and its times cannot be read");
}
