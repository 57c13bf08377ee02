// Block placement by time; gaps are the grid ranges no block covers.
#include "formats/mef3/BlockMap.h"

#include "core/TimeFormat.h"
#include "formats/mef3/TimeSeriesIndex.h"
#include "formats/mef3/UniversalHeader.h"

#include <algorithm>
#include <limits>

namespace lv::formats::mef3 {

namespace {

std::string entryName(const std::string& indexPath, const BlockRef& b)
{
    const std::uint64_t at = kUniversalHeaderBytes + std::uint64_t{b.indexEntry} * kIndexEntryBytes;
    return indexPath + ": index entry " + std::to_string(b.indexEntry) + " (at byte " + std::to_string(at) + ")";
}

// Marks in `keep` the blocks of the longest run of non-decreasing start times (patience sorting, O(n log n)).
std::vector<char> longestOrderedRun(const std::vector<BlockRef>& blocks)
{
    std::vector<std::size_t> tails;                           // tails[k]: last block of the best run of length k+1
    std::vector<std::size_t> before(blocks.size(), SIZE_MAX); // predecessor of each block in its best run
    for (std::size_t i = 0; i < blocks.size(); ++i) {
        const auto at = std::upper_bound(tails.begin(), tails.end(), blocks[i].startTime,
                                         [&](core::Uutc t, std::size_t j) { return t < blocks[j].startTime; });
        if (at != tails.begin()) before[i] = *(at - 1);
        if (at == tails.end())
            tails.push_back(i);
        else
            *at = i;
    }
    std::vector<char> keep(blocks.size(), 0);
    for (std::size_t i = tails.empty() ? SIZE_MAX : tails.back(); i != SIZE_MAX; i = before[i]) keep[i] = 1;
    return keep;
}

} // namespace

std::vector<std::string> screenSegmentBlocks(std::vector<BlockRef>& blocks, double fs, SegmentSpan span,
                                             const std::string& indexPath)
{
    std::vector<std::string> warnings;
    const core::Uutc slack = core::saturatingAdd(1, 2 * core::saturatingRound(1e6 / fs)); // rounding of the times
    const bool bounded = span.start != core::kNoTime && span.end != core::kNoTime && span.end > span.start;
    core::Uutc previousEnd = core::kNoTime; // where the last block kept ends
    std::erase_if(blocks, [&](const BlockRef& b) {
        if (b.startTime == core::kNoTime) {
            warnings.push_back(entryName(indexPath, b) + " gives no start time: its samples are missing");
            return true;
        }
        if (b.sampleCount == 0) {
            warnings.push_back(entryName(indexPath, b) + " claims 0 samples: its block is not read (a gap)");
            return true;
        }
        if (b.sampleCount > kMaxBlockSamples) {
            warnings.push_back(entryName(indexPath, b) + " claims " + std::to_string(b.sampleCount) +
                               " samples, more than a RED block holds (" + std::to_string(kMaxBlockSamples) +
                               "): its samples are missing");
            return true;
        }
        if (!bounded) return false;
        const core::Uutc end = core::SampleGrid{b.startTime, fs}.timeOf(b.sampleCount);
        const bool inside =
            b.startTime >= core::saturatingAdd(span.start, -slack) && end <= core::saturatingAdd(span.end, slack);
        // A block past the header's end that continues the block before it is an append whose metadata was not
        // rewritten yet (a writer killed between the index commit and the .tmet rename): kept.
        const bool continues = previousEnd != core::kNoTime &&
                               b.startTime >= core::saturatingAdd(previousEnd, -slack) &&
                               b.startTime <= core::saturatingAdd(previousEnd, slack);
        if (inside || continues) {
            previousEnd = end;
            return false;
        }
        warnings.push_back(entryName(indexPath, b) + ": its block of " + std::to_string(b.sampleCount) +
                           " samples at " + core::formatIso(b.startTime) + " lies outside the segment's span " +
                           core::formatIso(span.start) + " to " + core::formatIso(span.end) +
                           " (its header): its samples are missing");
        return true;
    });
    const std::vector<char> keep = longestOrderedRun(blocks);
    std::size_t i = 0;
    std::erase_if(blocks, [&](const BlockRef& b) {
        if (keep[i++]) return false;
        warnings.push_back(entryName(indexPath, b) + ": its block at " + core::formatIso(b.startTime) +
                           " is out of time order with the blocks around it: its samples are missing");
        return true;
    });
    return warnings;
}

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
        end = core::saturatingAdd(index, b.sampleCount);
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
        return core::saturatingAdd(b.gridIndex, static_cast<std::int64_t>(b.sampleCount)) <= sample;
    });
    return static_cast<std::size_t>(it - blocks.begin());
}

} // namespace lv::formats::mef3
