// SampleGrid: exact on ordinary grids, defined (saturating, bounded steps) on absurd ones.
#include "core/Time.h"

#include <gtest/gtest.h>

namespace lv::core {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

TEST(SampleGrid, OrdinaryGridsAreExact)
{
    const SampleGrid grid{1'000'000, 256.0};
    EXPECT_EQ(grid.timeOf(256), 2'000'000);
    EXPECT_EQ(grid.timeOf(1), 1'003'906);
    EXPECT_EQ(grid.nearestIndex(2'000'001), 256);
    EXPECT_EQ(grid.firstIndexAtOrAfter(1'003'906), 1);
    EXPECT_EQ(grid.firstIndexAtOrAfter(1'003'907), 2);
    EXPECT_EQ(grid.firstIndexAtOrAfter(0), -256);
}

TEST(SampleGrid, AHugeRateSaturatesInsteadOfLooping)
{
    const SampleGrid grid{0, 1e300};
    EXPECT_EQ(grid.firstIndexAtOrAfter(1000), kMax);
    EXPECT_EQ(grid.firstIndexAtOrAfter(-1000), kMin);
    EXPECT_EQ(grid.nearestIndex(1), kMax);
    EXPECT_EQ(grid.timeOf(kMax), 0); // 9.2e18 samples at 1e300 Hz take no microsecond
}

TEST(SampleGrid, ATinyRateSaturatesTimes)
{
    const SampleGrid grid{1'000'000, 1e-300};
    EXPECT_EQ(grid.timeOf(1), kMax);
    EXPECT_EQ(grid.timeOf(-1), kMin + 1'000'000);
    EXPECT_EQ(grid.firstIndexAtOrAfter(kMax), 1);
    EXPECT_EQ(grid.firstIndexAtOrAfter(2'000'000), 1);
    EXPECT_EQ(grid.nearestIndex(kMax), 0);
}

TEST(SampleGrid, ExtremeTimesDoNotOverflow)
{
    const SampleGrid grid{kMin, 1e6};
    EXPECT_EQ(grid.nearestIndex(kMax), kMax);
    EXPECT_EQ(grid.timeOf(kMax), -1); // kMin + 2^63 - 1
    EXPECT_EQ(grid.firstIndexAtOrAfter(kMax), kMax);
    const SampleGrid late{kMax, 1e6};
    EXPECT_EQ(late.nearestIndex(kMin), kMin);
    EXPECT_EQ(late.timeOf(1), kMax);
}

TEST(SampleGrid, NanRateGivesDefinedValues)
{
    const SampleGrid grid{0, std::nan("")};
    EXPECT_EQ(grid.nearestIndex(1000), 0);
    EXPECT_EQ(grid.timeOf(5), 0);
    (void)grid.firstIndexAtOrAfter(1000); // returns at all
}

TEST(SamplingRate, PlausibleRange)
{
    EXPECT_TRUE(plausibleSamplingRate(1e6));
    EXPECT_TRUE(plausibleSamplingRate(1e-6));
    EXPECT_TRUE(plausibleSamplingRate(256.0));
    EXPECT_FALSE(plausibleSamplingRate(1e6 + 1));
    EXPECT_FALSE(plausibleSamplingRate(0.0));
    EXPECT_FALSE(plausibleSamplingRate(-1.0));
    EXPECT_FALSE(plausibleSamplingRate(std::nan("")));
    EXPECT_FALSE(plausibleSamplingRate(std::numeric_limits<double>::infinity()));
}

} // namespace
} // namespace lv::core
