// Where the parts of one concatenated channel go on its merged grid, and which part's samples are kept where
// parts overlap (the overlap policy); what a merge writes and what its dry run shows.
#pragma once

#include "core/RecordingInfo.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lv::convert {

// Where parts of one channel overlap in time: refuse (Error), keep the earlier part's samples (First) or the
// later part's (Last). Overlap is judged on the parts' spans (first to last sample, their own gaps included).
enum class OverlapPolicy { Error, First, Last };

// One part's channel, the input of a placement.
struct PartChannel {
    std::size_t part = 0;                    // index of the input
    std::size_t channel = 0;                 // channel index in that input
    const core::ChannelInfo* info = nullptr; // its description (gridLength > 0)
};

// A stretch of one part's grid, [from, to) in the part's own sample indices, placed at merged index offset + i.
struct Fragment {
    std::size_t part = 0;
    std::size_t channel = 0;
    std::int64_t offset = 0; // merged grid index of the part's sample 0
    std::int64_t from = 0;
    std::int64_t to = 0;
};

// Two parts whose spans share [range.start, range.end).
struct Overlap {
    std::size_t earlier = 0; // the part that starts first
    std::size_t later = 0;
    core::TimeRange range;
    std::optional<std::size_t> kept; // the part whose samples are written there; nullopt under Error
    std::int64_t droppedSamples = 0; // grid points of the other part left out
};

struct Placement {
    core::ChannelInfo channel;       // the merged channel: fs, start, end, counts, segments, gaps (name, unit: caller)
    std::vector<Fragment> fragments; // in grid order, never overlapping
    std::vector<Overlap> overlaps;   // every pair of parts that overlap, in time order
    std::vector<std::pair<std::size_t, std::int64_t>> shifted; // (part, us) placed more than 1 us off its start
};

// Places `parts` (one rate, at least one) on a grid starting at the earliest part. Under Error overlapping parts
// stay whole (the caller refuses the merge, or a dry run shows it); under First/Last each part keeps what no
// part of higher priority covers. Gaps: between fragments and each part's own gaps within its fragments.
Placement placeParts(std::vector<PartChannel> parts, OverlapPolicy policy);

} // namespace lv::convert
