// Conversion of any readable recording to ASAM MDF 4.10: one data group per (rate, grid start), each record a
// float64 time and the channels' stored counts with a linear conversion (or, for sources that store floats, the
// physical values as floats of the source's width), invalidation bits where a sample is missing,
// annotations as events; written under a temporary name and renamed when complete.
#pragma once

#include "convert/Targets.h"
#include "core/Recording.h"

#include <string>

namespace lv::convert {

// Writes `selection` of `recording` to `output` (.mf4). Channels sharing a rate and a grid start form one data
// group; a grid point where none of a group's channels has a sample is left out (its time is absent), one where
// some have none sets their invalidation bits. Counts are stored as int16 (EDF sources) or int32 with the
// channel's factor and offset as a linear conversion (exact); a channel whose source stores IEEE floats
// (ChannelInfo::floatBits: MDF 4, CDF, BrainVision) as float32 or float64 physical values, without a conversion. The
// master "time" is seconds since HD's start (the selection's start, or the recording's when later): index / fs + the
// grid's start. Annotations in the range (and damaged blocks read as missing) become marker events, with a begin and an
// end event when they last. HD's comment holds the provenance. Existing outputs are refused; nothing is left behind on
// failure or cancellation.
core::Result<ExportOutcome> exportMdf4(core::Recording& recording, const Selection& selection,
                                       const TargetOptions& options, const std::string& output,
                                       const core::ReadControl& control);

} // namespace lv::convert
