// Where the parts of one concatenated irregular channel go: each part's samples after the earlier parts', in time
// order, with the overlap policy applied by sample times.
#pragma once

#include "convert/MergePlacement.h"
#include "core/Recording.h"

#include <vector>

namespace lv::convert {

// Places irregular `parts` (each read through recordings[part]) one after another in time order: a fragment per
// part, offset so that merged sample = part sample + offset. Overlap is judged on the parts' spans (first sample to
// just after the last): under Error the parts stay whole (the caller refuses the merge); under First a later part
// keeps its samples from the earlier one's end on, under Last an earlier part keeps those before the later one's
// start. The merged channel: irregular, the first part's median rate, the parts' segments (clipped to what is
// kept) and gaps between them, sampleCount = gridLength = the samples kept.
core::Result<Placement> placeIrregularParts(std::vector<PartChannel> parts,
                                            const std::vector<core::Recording*>& recordings, OverlapPolicy policy);

// The merged samples whose times lie in `range`, over `fragments` (time order, not overlapping).
core::Result<core::SampleSpan> irregularSamplesIn(const std::vector<Fragment>& fragments,
                                                  const std::vector<core::Recording*>& recordings,
                                                  core::TimeRange range);

} // namespace lv::convert
