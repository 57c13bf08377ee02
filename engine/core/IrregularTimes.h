// The layout of an irregular channel's sample times: median interval, segments and gaps.
#pragma once

#include "core/RecordingInfo.h"
#include "core/Time.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lv::core {

struct IrregularLayout {
    double medianIntervalNs = 0;     // of successive samples; 0 for fewer than two
    double fs = 0;                   // 1e9 / medianIntervalNs (1 for fewer than two samples or all at one time)
    std::vector<TimeRange> segments; // runs of samples no more than kIrregularGapFactor median intervals apart;
                                     // each ends 1 us after its last sample's microsecond
    std::vector<TimeRange> gaps;     // between the segments
};

// The layout of `timesNs` (non-decreasing, ns since 1970); `gapFactor` median intervals or more apart is a gap.
IrregularLayout layoutOfTimes(std::span<const std::int64_t> timesNs, double gapFactor);

// An irregular channel's rate, start, end, segments, gaps and counts from its sample times (non-empty; timeBase is
// the caller's).
void describeIrregular(ChannelInfo& ch, std::span<const std::int64_t> timesNs);

// The median interval of non-decreasing times (0 for fewer than two), exact for up to 2^20 intervals, else over an
// even sample of them.
double medianInterval(std::span<const std::int64_t> timesNs);

} // namespace lv::core
