// Block placement by time; gaps are the grid ranges no block covers.
#include "formats/mef3/BlockMap.h"

#include <algorithm>
#include <limits>

namespace lv::formats::mef3 {

BlockPlacement placeBlocks(std::vector<BlockRef>& blocks, double fs, std::size_t segmentCount)
{
    BlockPlacement p;
    std::erase_if(blocks, [](const BlockRef& b) { return b.sampleCount == 0; });
    if (blocks.empty()) return p;
    std::stable_sort(blocks.begin(), blocks.end(),
                     [](const BlockRef& a, const BlockRef& b) { return a.startTime < b.startTime; });
    p.origin = blocks.front().startTime;
    const core::SampleGrid grid{p.origin, fs};
    constexpr std::int64_t kUnset = std::numeric_limits<std::int64_t>::min();
    std::vector<std::pair<std::int64_t, std::int64_t>> segmentSpan(segmentCount, {kUnset, kUnset});
    std::int64_t end = 0;
    for (BlockRef& b : blocks) {
        std::int64_t index = grid.nearestIndex(b.startTime);
        if (index < end) {
            if (index + 1 < end) ++p.overlaps; // a one-sample difference is timestamp rounding, not overlap
            index = end;
        }
        if (index > end) p.gaps.push_back({grid.timeOf(end), grid.timeOf(index)});
        b.gridIndex = index;
        end = index + b.sampleCount;
        p.storedSamples += b.sampleCount;
        auto& span = segmentSpan[b.segment];
        if (span.first == kUnset) span.first = index;
        span.second = end;
    }
    p.gridLength = end;
    for (const auto& [first, last] : segmentSpan)
        if (first != kUnset) p.segments.push_back({grid.timeOf(first), grid.timeOf(last)});
    std::sort(p.segments.begin(), p.segments.end(),
              [](const core::TimeRange& a, const core::TimeRange& b) { return a.start < b.start; });
    return p;
}

std::size_t firstBlockEndingAfter(std::span<const BlockRef> blocks, std::int64_t sample)
{
    const auto it = std::partition_point(blocks.begin(), blocks.end(), [sample](const BlockRef& b) {
        return b.gridIndex + static_cast<std::int64_t>(b.sampleCount) <= sample;
    });
    return static_cast<std::size_t>(it - blocks.begin());
}

} // namespace lv::formats::mef3
