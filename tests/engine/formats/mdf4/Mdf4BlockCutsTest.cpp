// Blocks cut along raster runs and reduction intervals: whole intervals packed while they fit, never across a gap,
// the rest in pieces without extrema.
#include "formats/mdf4/Mdf4BlockCuts.h"

#include <gtest/gtest.h>

using namespace lv::formats::mdf4;

namespace {

struct Cut {
    std::int64_t firstRecord, count, firstGrid;
    std::size_t k0, k1;
};

void expectCuts(const BlockCuts& got, const std::vector<Cut>& want)
{
    ASSERT_EQ(got.blocks.size(), want.size());
    for (std::size_t b = 0; b < want.size(); ++b) {
        EXPECT_EQ(got.firstRecord[b], want[b].firstRecord) << "block " << b;
        EXPECT_EQ(got.blocks[b].count, want[b].count) << "block " << b;
        EXPECT_EQ(got.blocks[b].first, want[b].firstGrid) << "block " << b;
        EXPECT_EQ(got.intervals[b], std::make_pair(want[b].k0, want[b].k1)) << "block " << b;
        EXPECT_FALSE(got.blocks[b].hasExtrema);
    }
}

const std::uint64_t kRecordBytes = kBlockBytes / 64; // 64 records a block at most

} // namespace

TEST(Mdf4BlockCuts, WithoutAReductionBlocksAreTheLargestSizeInsideRuns)
{
    const lv::core::Raster raster{100.0, 0.0, {lv::core::RasterRun{0, 0, 100}, lv::core::RasterRun{100, 150, 30}}};
    expectCuts(cutBlocks(raster, kRecordBytes, nullptr), {{0, 64, 0, 0, 0}, {64, 36, 64, 0, 0}, {100, 30, 150, 0, 0}});
}

TEST(Mdf4BlockCuts, WholeIntervalsMakeBlocksWithExtremaOthersArePieces)
{
    const lv::core::Raster raster{100.0, 0.0, {lv::core::RasterRun{0, 0, 100}, lv::core::RasterRun{100, 150, 200}}};
    ReductionData r;
    r.firstRecord = {10, 40, 90, 130, 140, 250}; // [90, 130) straddles the gap; [140, 250) is larger than a block
    expectCuts(cutBlocks(raster, kRecordBytes, &r), {
                                                        {0, 10, 0, 0, 0},     // before the first interval
                                                        {10, 30, 10, 0, 1},   // interval 0; 0 and 1 would be 80
                                                        {40, 50, 40, 1, 2},   // interval 1
                                                        {90, 10, 90, 0, 0},   // the first part of interval 2
                                                        {100, 30, 150, 0, 0}, // its second part, after the gap
                                                        {130, 10, 180, 3, 4}, // interval 3
                                                        {140, 64, 190, 0, 0}, // interval 4 in pieces
                                                        {204, 46, 254, 0, 0},
                                                        {250, 50, 300, 5, 6}, // the last interval, to the end
                                                    });
}
