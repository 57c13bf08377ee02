// Block placement by time: fractional rates, gaps, overlaps, and the binary search used by reads.
#include "formats/mef3/BlockMap.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

BlockRef block(std::uint32_t segment, core::Uutc start, std::uint32_t samples)
{
    BlockRef b;
    b.segment = segment;
    b.startTime = start;
    b.sampleCount = samples;
    return b;
}

TEST(BlockMap, FractionalRateBlocksStayContiguous)
{
    const double fs = 1000.0 / 3.0; // 3 ms per sample
    std::vector<BlockRef> blocks;
    for (int k = 0; k < 10; ++k)
        blocks.push_back(block(0, 1000000 + static_cast<core::Uutc>(std::llround(k * 7 * 3000.0)), 7));
    const BlockPlacement p = placeBlocks(blocks, fs, 1);
    EXPECT_TRUE(p.gaps.empty());
    EXPECT_EQ(p.gridLength, 70);
    for (int k = 0; k < 10; ++k) EXPECT_EQ(blocks[static_cast<std::size_t>(k)].gridIndex, 7 * k);
}

TEST(BlockMap, GapsBetweenSegmentsAndUnsortedInput)
{
    std::vector<BlockRef> blocks{block(1, 10000000, 256), block(0, 0, 256), block(0, 1000000, 256)};
    const BlockPlacement p = placeBlocks(blocks, 256.0, 2);
    ASSERT_EQ(p.gaps.size(), 1u);
    EXPECT_EQ(p.gaps[0], (core::TimeRange{2000000, 10000000}));
    ASSERT_EQ(p.segments.size(), 2u);
    EXPECT_EQ(p.segments[1], (core::TimeRange{10000000, 11000000}));
    EXPECT_EQ(p.gridLength, 11 * 256);
    EXPECT_EQ(p.storedSamples, 3 * 256);
    EXPECT_EQ(firstBlockEndingAfter(blocks, 0), 0u);
    EXPECT_EQ(firstBlockEndingAfter(blocks, 511), 1u);
    EXPECT_EQ(firstBlockEndingAfter(blocks, 512), 2u);
    EXPECT_EQ(firstBlockEndingAfter(blocks, 99999), 3u);
}

TEST(BlockMap, OneMissingSampleIsAGap)
{
    // 256 Hz: the second block starts 257 samples (1003906 us) after the first.
    std::vector<BlockRef> blocks{block(0, 0, 256), block(0, 1003906, 256)};
    const BlockPlacement p = placeBlocks(blocks, 256.0, 1);
    ASSERT_EQ(p.gaps.size(), 1u);
    EXPECT_EQ(p.gaps[0], (core::TimeRange{1000000, 1003906}));
    EXPECT_EQ(blocks[1].gridIndex, 257);
}

TEST(BlockMap, OverlappingBlockIsMovedAfterItsPredecessor)
{
    std::vector<BlockRef> blocks{block(0, 0, 256), block(0, 500000, 256)};
    const BlockPlacement p = placeBlocks(blocks, 256.0, 1);
    EXPECT_EQ(p.overlaps, 1);
    EXPECT_EQ(blocks[1].gridIndex, 256);
    EXPECT_TRUE(p.gaps.empty());
}

} // namespace
} // namespace lv::formats::mef3
