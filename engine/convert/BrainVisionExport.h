// Conversion of any readable recording to BrainVision file sets (.vhdr, .vmrk, .eeg): one set per sampling grid.
#pragma once

#include "convert/Targets.h"
#include "core/Recording.h"

#include <string>

namespace lv::convert {

// Writes `selection` of `recording` as BrainVision: the channels of one rate and grid start in one file set named
// `output` (several grids: one set each, "<name>_<rate>Hz[_n].vhdr"). Data points are multiplexed; INT_16 counts
// (EDF sources, when every count fits) or INT_32 counts with the channel's factor as the resolution where that is
// exact (no offset), else IEEE_FLOAT_32 physical values with NaN for a sample that is missing while others of its
// data point are there. Grid points where every channel is missing are left out: a "New Segment" marker with the
// date of its first sample starts each stretch after them (the time between is not held by the format; the dates
// say it). Annotations in the range become markers at their nearest data point (one in a gap: the last point
// before it or the first after it, whichever is nearer), with their length in data points and their channel. Existing
// outputs are refused; nothing is left behind on failure or cancellation.
core::Result<ExportOutcome> exportBrainVision(core::Recording& recording, const Selection& selection,
                                              const TargetOptions& options, const std::string& output,
                                              const core::ReadControl& control);

} // namespace lv::convert
