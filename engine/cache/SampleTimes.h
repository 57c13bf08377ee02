// Where a channel's samples lie in time, for grid and irregular channels alike: grid channels from their grid,
// irregular ones from the recording's own sample times (ViewContext::times).
#pragma once

#include "core/Recording.h"
#include "core/RecordingInfo.h"

#include <cstdint>

namespace lv::cache {

// The samples of `channel` whose times lie in the half-open range [range.start, range.end) (uUTC), clamped to the
// stored ones (grid channels: [0, gridLength)). An irregular channel needs `times`.
core::Result<core::SampleSpan> samplesOf(core::Recording* times, const core::ChannelInfo& info, std::size_t channel,
                                         core::TimeRange range);
// The time span of samples [first, end) of `channel`: the grid's [timeOf(first), timeOf(end)), or for an irregular
// channel [time of first, time of end - 1 + 1 us) (its last sample's microsecond included).
core::Result<core::TimeRange> timeSpanOf(core::Recording* times, const core::ChannelInfo& info, std::size_t channel,
                                         std::int64_t first, std::int64_t end);

} // namespace lv::cache
