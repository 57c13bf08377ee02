// The raster of master times: median interval, refined over the span, every time checked against its grid point.
#include "core/Raster.h"

#include "core/Time.h"

#include <algorithm>
#include <cmath>

namespace lv::core {

namespace {

constexpr std::size_t kMedianIntervals = std::size_t{1} << 20; // intervals looked at for the median, at most

// The median interval: of every interval up to kMedianIntervals of them, else of that many spread evenly over the
// span (a raster's intervals are all alike; the step is refined over every interval afterwards).
double medianInterval(std::span<const double> t)
{
    const std::size_t intervals = t.size() - 1, stride = (intervals + kMedianIntervals - 1) / kMedianIntervals;
    std::vector<double> d;
    d.reserve(intervals / stride + 1);
    for (std::size_t i = 0; i < intervals; i += stride) d.push_back(t[i + 1] - t[i]);
    const auto mid = d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2);
    std::nth_element(d.begin(), mid, d.end());
    return *mid;
}

// The runs of consecutive grid points of every time at interval `step`, or empty when one is off its point or
// does not advance.
std::vector<RasterRun> gridRuns(std::span<const double> t, double step)
{
    std::vector<RasterRun> runs;
    std::int64_t previous = -1;
    for (std::size_t i = 0; i < t.size(); ++i) {
        const double k = std::round((t[i] - t[0]) / step);
        if (!(std::abs(t[i] - t[0] - k * step) <= kRasterJitter * step) || k > 9.0e15) return {};
        const auto point = static_cast<std::int64_t>(k);
        if (point <= previous) return {};
        if (point == previous + 1 && !runs.empty())
            ++runs.back().count;
        else
            runs.push_back(RasterRun{static_cast<std::int64_t>(i), point, 1});
        previous = point;
    }
    return runs;
}

// Grid points counted interval by interval at about `step` (the median interval, which can be off by the jitter
// and would drift over a long span): the last point's index refines the step.
std::int64_t lastPointByIntervals(std::span<const double> t, double step)
{
    double k = 0;
    for (std::size_t i = 1; i < t.size(); ++i) k += std::max(1.0, std::round((t[i] - t[i - 1]) / step));
    return k > 9.0e15 ? 0 : static_cast<std::int64_t>(k);
}

double roundedToDigits(double v, int digits)
{
    if (!(v > 0) || !std::isfinite(v)) return v;
    const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(v))));
    return std::round(v * scale) / scale;
}

} // namespace

std::optional<Raster> fitRaster(std::span<const double> times)
{
    if (times.empty()) return std::nullopt;
    for (double t : times)
        if (!std::isfinite(t)) return std::nullopt;
    if (times.size() == 1) return Raster{1.0, times[0], {RasterRun{0, 0, 1}}};
    const double median = medianInterval(times);
    if (!(median > 0) || !(times.back() > times.front())) return std::nullopt;
    const double measured = static_cast<double>(lastPointByIntervals(times, median)) / (times.back() - times.front());
    if (!plausibleSamplingRate(measured)) return std::nullopt;
    for (double candidate : {std::round(measured), roundedToDigits(measured, 6), measured}) {
        if (!plausibleSamplingRate(candidate) || std::abs(candidate - measured) > kRasterJitter * measured) continue;
        if (std::vector<RasterRun> runs = gridRuns(times, 1.0 / candidate); !runs.empty())
            return Raster{candidate, times[0], std::move(runs)};
    }
    return std::nullopt;
}

void describeRuns(ChannelInfo& ch, std::span<const RasterRun> runs)
{
    const SampleGrid grid = ch.grid();
    std::int64_t end = 0;
    for (const RasterRun& run : runs) {
        if (run.firstGrid > end) ch.gaps.push_back({grid.timeOf(end), grid.timeOf(run.firstGrid)});
        ch.segments.push_back({grid.timeOf(run.firstGrid), grid.timeOf(run.firstGrid + run.count)});
        end = run.firstGrid + run.count;
        ch.sampleCount += run.count;
    }
    ch.gridLength = end;
    ch.end = grid.timeOf(end);
}

} // namespace lv::core
