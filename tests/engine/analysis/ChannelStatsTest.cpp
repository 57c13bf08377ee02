// Statistics equal brute force over the truth CSV, with gaps counted and identical for any thread count.
#include "analysis/ChannelStats.h"

#include "decode/ThreadPool.h"
#include "formats/mef3/MefRecording.h"
#include "support/TestSupport.h"

#include <cmath>
#include <gtest/gtest.h>

namespace lv::analysis {
namespace {

TEST(ChannelStats, MatchBruteForceOverTheTruth)
{
    auto r = formats::mef3::openMef3((test::testdata() / "mef3/meflib/meflib_rto.mefd").string(), {});
    ASSERT_TRUE(r.ok());
    const auto truth = test::readTruth(test::testdata() / "mef3/meflib/meflib_rto.truth.csv");
    const core::TimeRange all{(*r)->info().start, (*r)->info().end};
    decode::ThreadPool pool(2);
    core::ReadControl control;
    control.runner = &pool;
    auto stats = computeStats(**r, {0, 1}, all, control);
    ASSERT_TRUE(stats.ok());
    for (const ChannelStats& s : *stats) {
        const core::ChannelInfo& ch = (*r)->info().channels[s.channel];
        const auto& t = truth.at(ch.name);
        std::int64_t n = 0;
        long double sum = 0, lo = INFINITY, hi = -INFINITY;
        for (const auto& v : t.raw)
            if (v) ++n, sum += *v, lo = std::min<long double>(lo, *v), hi = std::max<long double>(hi, *v);
        const long double mean = sum / n;
        long double ss = 0;
        for (const auto& v : t.raw)
            if (v) ss += (*v - mean) * (*v - mean);
        EXPECT_EQ(s.samples, n);
        EXPECT_EQ(s.gaps, static_cast<std::int64_t>(ch.gaps.size()));
        EXPECT_EQ(s.nanCount, 0);
        EXPECT_DOUBLE_EQ(s.minimum, static_cast<double>(lo) * ch.conversionFactor);
        EXPECT_DOUBLE_EQ(s.maximum, static_cast<double>(hi) * ch.conversionFactor);
        EXPECT_NEAR(s.mean, static_cast<double>(mean) * ch.conversionFactor, 1e-12);
        EXPECT_NEAR(s.standardDeviation, static_cast<double>(std::sqrt(ss / (n - 1))) * ch.conversionFactor, 1e-9);
    }
    EXPECT_EQ((*stats)[0].gapDurationUs, 20000000); // LA1's 20 s gap
    auto single = computeStats(**r, {0, 1}, all, {});
    ASSERT_TRUE(single.ok());
    EXPECT_EQ((*single)[0].standardDeviation, (*stats)[0].standardDeviation);
    EXPECT_EQ((*single)[1].mean, (*stats)[1].mean);
}

} // namespace
} // namespace lv::analysis
