// What every viewing request works on: a recording's blocks, the shared cache, and optionally its pyramid. The
// one place blocks are decoded for viewing: through the cache (single flight), summarised into the pyramid.
#pragma once

#include "cache/BlockCache.h"
#include "cache/DamagedBlocks.h"
#include "cache/Pyramid.h"
#include "core/BlockSource.h"

#include <cstdint>
#include <span>

namespace lv::cache {

struct ViewContext {
    const core::BlockSource* source = nullptr;
    BlockCache* cache = nullptr;
    std::uint64_t recording = 0; // the recording's key in the cache
    Pyramid* pyramid = nullptr;  // optional: every decoded block is summarised into it
    // Optional: a block whose decode finds damage (CRC, header) is recorded here and cached as all missing, so it
    // is drawn as damaged, never as data; without it such a decode fails.
    DamagedBlocks* damaged = nullptr;
    // Optional: the recording, for the sample times of irregular channels (Recording::readTimes, samplesIn; both
    // must be safe to call from several threads). Without it irregular channels cannot be viewed.
    core::Recording* times = nullptr;
};

// Block `block` of `channel`, from the cache or decoded (and then cached and summarised). The decode always
// verifies the block's CRC.
core::Result<BlockData> fetchBlock(const ViewContext& view, std::size_t channel, std::size_t block,
                                   const core::ReadControl& control);
// The block from the cache if there, else decoded and summarised without entering the cache (pyramid builds and
// long scans that must not push the visible pages out).
core::Result<BlockData> fetchBlockUncached(const ViewContext& view, std::size_t channel, std::size_t block,
                                           const core::ReadControl& control);

// One block of fetchBlocks and what it got.
struct BlockFetch {
    std::size_t channel = 0;
    std::size_t block = 0;
    core::Result<BlockData> result = BlockData{};
};

// fetchBlock (keepInCache) or fetchBlockUncached for each block, those to decode decoded together (the source's
// decodeBlocks: MEF decodes them side by side); with keepInCache, single flight as fetchBlock (BlockCache::getMany).
void fetchBlocks(const ViewContext& view, std::span<BlockFetch> fetches, bool keepInCache,
                 const core::ReadControl& control);

// Fills out[i] with grid sample first + i of `channel` (kNoSample where no sample exists), block by block through
// the cache: a page assembled from cached blocks costs copies only.
core::Status readThroughCache(const ViewContext& view, std::size_t channel, std::int64_t first,
                              std::span<std::int32_t> out, const core::ReadControl& control);

// Blocks [first, end) of `channel` that hold samples of grid range [from, to), half-open.
struct BlockIndexRange {
    std::size_t first = 0;
    std::size_t end = 0;
};
BlockIndexRange blocksCovering(const core::BlockSource& source, std::size_t channel, std::int64_t from,
                               std::int64_t to);

} // namespace lv::cache
