// Sample grids and the mapping of half-open time ranges to grid indices.
#include "core/Recording.h"

#include <gtest/gtest.h>

namespace lv::core {
namespace {

TEST(SampleGrid, FractionalRatesRoundToTheNearestMicrosecond)
{
    const SampleGrid grid{1000, 3.0};
    EXPECT_EQ(grid.timeOf(1), 1000 + 333333);
    EXPECT_EQ(grid.timeOf(2), 1000 + 666667);
    EXPECT_EQ(grid.nearestIndex(1000 + 666667), 2);
    EXPECT_EQ(grid.firstIndexAtOrAfter(1000 + 333334), 2);
    EXPECT_EQ(grid.firstIndexAtOrAfter(1000 + 333333), 1);
}

TEST(SampleSpan, HalfOpenAndClampedToTheChannel)
{
    ChannelInfo ch;
    ch.fs = 256.0;
    ch.start = 0;
    ch.gridLength = 512; // two seconds
    EXPECT_EQ(sampleSpan(ch, {0, 1000000}).count, 256);
    EXPECT_EQ(sampleSpan(ch, {1, 1000000}).first, 1);
    EXPECT_EQ(sampleSpan(ch, {-5000000, 50000000}).count, 512);
    EXPECT_EQ(sampleSpan(ch, {3000000, 4000000}).count, 0);
}

TEST(Physical, NanWhereNoSample)
{
    ChannelSamples s;
    s.raw = {10, kNoSample, -3};
    const auto p = toPhysical(s, 0.5);
    EXPECT_EQ(p[0], 5.0);
    EXPECT_TRUE(std::isnan(p[1]));
    EXPECT_EQ(p[2], -1.5);
}

TEST(Physical, OffsetIsAddedAfterTheFactor)
{
    ChannelSamples s;
    s.raw = {10, kNoSample, -4};
    const auto p = toPhysical(s, 0.5, 100.0);
    EXPECT_EQ(p[0], 105.0);
    EXPECT_TRUE(std::isnan(p[1]));
    EXPECT_EQ(p[2], 98.0);
}

} // namespace
} // namespace lv::core
