// How a merge puts its inputs together (concatenated in time or stacked side by side, the overlap policy), and
// its time line: what a dry run prints and the merge preview draws, computed without reading a sample.
#pragma once

#include "convert/MergePlacement.h"
#include "core/Error.h"
#include "core/RecordingInfo.h"

#include <optional>
#include <string>
#include <vector>

namespace lv::convert {

// Concat: recordings of the same channels, one after the other in time (the time between them: gaps).
// Stack: the channels of every recording side by side on one time axis (a name in several inputs gets the
// input's file name as a prefix, "a:Fp1").
enum class MergeMode { Concat, Stack };

struct MergeOptions {
    MergeMode mode = MergeMode::Concat;
    OverlapPolicy overlap = OverlapPolicy::Error; // concat only
};

struct MergeTimeline {
    struct Input {
        std::string path;
        std::string format;
        core::TimeRange span; // first to last sample of any channel
    };
    // A stretch of the merged channel written from one input.
    struct Part {
        std::size_t input = 0;
        std::string sourceChannel; // the input's name of the channel
        core::TimeRange span;      // on the merged channel, half-open
    };
    struct Channel {
        std::string name;
        double fs = 0.0;
        std::string unit;
        core::TimeRange span;
        std::vector<Part> parts; // in time order
        std::vector<core::TimeRange> gaps;
        std::vector<Overlap> overlaps; // concat: inputs' spans that overlap in this channel
    };
    MergeOptions options;
    std::vector<Input> inputs;
    std::vector<Channel> channels;
    core::TimeRange span;
    std::vector<std::string> warnings;
    std::optional<core::Error> error; // what the merge would fail with (an overlap under OverlapPolicy::Error)
};

// "concat"/"stack", "error"/"first"/"last" (for messages and JSON).
const char* mergeModeName(MergeMode mode);
const char* overlapPolicyName(OverlapPolicy policy);

// The name a merge gives its part `index` in messages (its path, or "part N"); Unsupported naming it when its times
// are relative to its start (`doing`: "merging", "stacking": both need true times).
core::Result<std::string> mergePartName(const core::RecordingInfo& part, std::size_t index, const std::string& doing);

} // namespace lv::convert
