// Places a channel's RED blocks on its sample grid by their start times; derives gaps and segments.
#pragma once

#include "core/Time.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

struct BlockRef {
    std::uint32_t segment = 0;    // index into the channel's segments
    std::uint32_t indexEntry = 0; // entry number in the segment's .tidx
    std::int64_t fileOffset = 0;  // in the segment's .tdat
    std::uint32_t blockBytes = 0;
    std::uint32_t sampleCount = 0;
    core::Uutc startTime = 0;   // true time (recording time offset applied)
    std::int64_t gridIndex = 0; // first sample's index on the channel grid (set by placeBlocks)
    std::int32_t minimum = 0;   // from the index; RED NaN when unknown
    std::int32_t maximum = 0;
    std::uint8_t flags = 0;
};

struct BlockPlacement {
    core::Uutc origin = 0;       // time of the channel's first sample
    std::int64_t gridLength = 0; // grid points up to the end of the last block
    std::int64_t storedSamples = 0;
    std::vector<core::TimeRange> gaps;     // between blocks, in grid times
    std::vector<core::TimeRange> segments; // per MEF segment, in grid times
    std::int64_t overlaps = 0;             // blocks that started inside their predecessor (moved after it)
};

// The largest RED block taken for real: no writer makes larger ones (meflib writes blocks of about a second,
// at most 1e6 samples at the highest plausible rate), and decoding one allocates 4 bytes a sample. A block's
// byte size bounds nothing: the range coder codes a constant run in almost no bytes.
inline constexpr std::uint32_t kMaxBlockSamples = 1u << 24;

// A segment's time span from its header (true times, end exclusive); kNoTime where the header gives none.
struct SegmentSpan {
    core::Uutc start = core::kNoTime;
    core::Uutc end = core::kNoTime;
};

// Drops from one segment's `blocks` (in index order) those whose index entries cannot be right, each with a
// warning naming `indexPath` and the entry's offset: 0 samples or more than kMaxBlockSamples; starting before
// `span` or ending after it (beyond two sample periods and a microsecond of rounding); out of time order (not in the
// longest run of non-decreasing start times, so one bad time drops one block, not the ones after it).
std::vector<std::string> screenSegmentBlocks(std::vector<BlockRef>& blocks, double fs, SegmentSpan span,
                                             const std::string& indexPath);

// Sorts `blocks` by time and assigns each its grid index: round((t - t0) * fs / 1e6), never overlapping
// the previous block. `segmentCount` is the number of MEF segments the blocks come from.
BlockPlacement placeBlocks(std::vector<BlockRef>& blocks, double fs, std::size_t segmentCount);

// Index of the first block whose samples end after grid index `sample` (blocks sorted by gridIndex).
std::size_t firstBlockEndingAfter(std::span<const BlockRef> blocks, std::int64_t sample);

} // namespace lv::formats::mef3
