// Where data is missing, as drawn: recording-wide "no data" bands and per-channel bands, from the engine's gaps.
#pragma once

#include "core/RecordingInfo.h"

#include <vector>

namespace lv::widgets {

// Derived once per recording (off the UI thread) from ChannelInfo::gaps. A time where no channel has a sample is a
// recording-wide gap; a channel's own gaps outside those are its per-channel band (our writer stores NaN runs as
// gaps of one channel, so these are the NaN runs of such sessions).
struct GapBands {
    std::vector<core::TimeRange> recording;             // sorted, disjoint, half-open uUTC
    std::vector<std::vector<core::TimeRange>> channels; // per channel: its gaps minus the recording-wide ones
};

GapBands computeGapBands(const core::RecordingInfo& info);

// Interval helpers on sorted, disjoint, half-open ranges.
std::vector<core::TimeRange> subtractRanges(const std::vector<core::TimeRange>& from,
                                            const std::vector<core::TimeRange>& remove);
std::vector<core::TimeRange> clipRanges(const std::vector<core::TimeRange>& ranges, core::TimeRange window);
std::vector<core::TimeRange> unionRanges(std::vector<core::TimeRange> ranges);

} // namespace lv::widgets
