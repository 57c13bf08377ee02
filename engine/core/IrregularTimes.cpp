// Segments and gaps of irregular sample times.
#include "core/IrregularTimes.h"

#include <algorithm>

namespace lv::core {

double medianInterval(std::span<const std::int64_t> timesNs)
{
    if (timesNs.size() < 2) return 0;
    constexpr std::size_t kMost = std::size_t{1} << 20;
    const std::size_t n = timesNs.size() - 1;
    const std::size_t step = n <= kMost ? 1 : n / kMost;
    std::vector<std::int64_t> intervals;
    intervals.reserve(n / step + 1);
    for (std::size_t i = 0; i < n; i += step) intervals.push_back(timesNs[i + 1] - timesNs[i]);
    const auto mid = intervals.begin() + static_cast<std::ptrdiff_t>(intervals.size() / 2);
    std::nth_element(intervals.begin(), mid, intervals.end());
    return static_cast<double>(*mid);
}

IrregularLayout layoutOfTimes(std::span<const std::int64_t> timesNs, double gapFactor)
{
    IrregularLayout layout;
    layout.medianIntervalNs = medianInterval(timesNs);
    layout.fs = layout.medianIntervalNs > 0 ? 1e9 / layout.medianIntervalNs : 1.0;
    if (timesNs.empty()) return layout;
    // With all samples at one time (median 0), only a step of a whole second or more splits them.
    const double gapNs = layout.medianIntervalNs > 0 ? gapFactor * layout.medianIntervalNs : 1e9;
    std::size_t runStart = 0;
    const auto close = [&](std::size_t last) {
        const TimeRange run{nsToUs(timesNs[runStart]), nsToUs(timesNs[last]) + 1};
        if (!layout.segments.empty() && run.start <= layout.segments.back().end) { // a gap under a microsecond
            layout.segments.back().end = run.end;
            return;
        }
        if (!layout.segments.empty()) layout.gaps.push_back({layout.segments.back().end, run.start});
        layout.segments.push_back(run);
    };
    for (std::size_t i = 1; i < timesNs.size(); ++i)
        if (static_cast<double>(timesNs[i] - timesNs[i - 1]) >= gapNs) {
            close(i - 1);
            runStart = i;
        }
    close(timesNs.size() - 1);
    return layout;
}

void describeIrregular(ChannelInfo& ch, std::span<const std::int64_t> timesNs)
{
    const IrregularLayout layout = layoutOfTimes(timesNs, kIrregularGapFactor);
    ch.irregular = true;
    ch.fs = layout.fs;
    ch.start = nsToUs(timesNs.front());
    ch.end = layout.segments.back().end;
    ch.segments = layout.segments;
    ch.gaps = layout.gaps;
    ch.sampleCount = ch.gridLength = static_cast<std::int64_t>(timesNs.size());
}

} // namespace lv::core
