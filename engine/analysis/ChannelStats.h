// Per-channel statistics over a time range, from exact integer sums of the stored counts.
#pragma once

#include "core/Recording.h"

#include <cstdint>
#include <vector>

namespace lv::analysis {

struct ChannelStats {
    std::size_t channel = 0;
    std::int64_t samples = 0;       // stored samples in the range
    std::int64_t gaps = 0;          // gaps that intersect the range
    std::int64_t gapDurationUs = 0; // their duration inside the range
    std::int64_t nanCount = 0;      // grid points inside stored data that hold no value (RED NaN)
    double minimum = 0.0;           // physical units; NaN when there are no samples
    double maximum = 0.0;
    double mean = 0.0;
    double standardDeviation = 0.0; // sample standard deviation (n - 1)
};

// Decodes every sample of the channels in `range` (all channels in parallel, chunk by chunk).
// Results are identical for any thread count.
core::Result<std::vector<ChannelStats>> computeStats(core::Recording& recording,
                                                     const std::vector<std::size_t>& channels, core::TimeRange range,
                                                     const core::ReadControl& control);

} // namespace lv::analysis
