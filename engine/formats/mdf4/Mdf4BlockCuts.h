// Where a channel group's records are cut into the blocks that the cache, the pyramid and the viewer use: inside
// raster runs, about 1 MiB of records each, and along a sample reduction's intervals where there is one, so that a
// block made of whole intervals has their extrema.
#pragma once

#include "core/BlockSource.h"
#include "core/Raster.h"
#include "formats/mdf4/Mdf4Reduction.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace lv::formats::mdf4 {

struct BlockCuts {
    std::vector<core::BlockSpan> blocks;   // grid samples, no extrema
    std::vector<std::int64_t> firstRecord; // of each block
    // The reduction intervals [first, second) that make up each block exactly; {0, 0} when it is not whole intervals.
    std::vector<std::pair<std::size_t, std::size_t>> intervals;
};

// Blocks of at most kBlockBytes of records (64 to 65,536 records), never across a gap of the raster; with a
// reduction, cut at its intervals' first records too and made of as many whole intervals as fit.
BlockCuts cutBlocks(const core::Raster& raster, std::uint64_t recordBytes, const ReductionData* reduction);

inline constexpr std::uint64_t kBlockBytes = std::uint64_t{1} << 20;

} // namespace lv::formats::mdf4
