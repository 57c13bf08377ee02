// Whether master times (an MDF 4 channel group's, a CDF epoch variable's) lie on a fixed raster (a sampling grid,
// gaps allowed), and where.
#pragma once

#include "core/RecordingInfo.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace lv::core {

// Records [firstRecord, firstRecord + count) lie on grid points [firstGrid, firstGrid + count).
struct RasterRun {
    std::int64_t firstRecord = 0;
    std::int64_t firstGrid = 0;
    std::int64_t count = 0;
};

struct Raster {
    double fs = 1.0;             // samples per second
    double firstTime = 0.0;      // the first record's master time, seconds
    std::vector<RasterRun> runs; // in record order; a jump of grid points between runs is a gap
};

// Relative jitter allowed: every time within 0.1 % of an interval from its grid point.
inline constexpr double kRasterJitter = 1e-3;

// The raster of `times` (seconds, one per record): the median interval, refined over the whole span, when every
// time lies within kRasterJitter of an interval from its grid point and grid points strictly increase. The rate is
// the nearest whole number, else the rate to 6 digits, else the measured one: the first whose grid the times fit.
// nullopt for irregular times (events, values on change), times that go back, NaN or a rate outside
// plausibleSamplingRate. One record is a raster of 1 Hz.
std::optional<Raster> fitRaster(std::span<const double> times);

// A grid channel's segments, gaps, sample count, grid length and end from its raster's runs (ch.start and ch.fs set:
// run k's grid points are ch.grid()'s).
void describeRuns(ChannelInfo& ch, std::span<const RasterRun> runs);

} // namespace lv::core
