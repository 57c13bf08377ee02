// Time in microseconds UTC (uUTC), half-open time ranges, and the sample grid of a channel.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace lv::core {

using Uutc = std::int64_t; // microseconds since 1970-01-01T00:00:00Z

inline constexpr Uutc kNoTime = std::numeric_limits<Uutc>::min();

// Half-open interval [start, end) in uUTC.
struct TimeRange {
    Uutc start = 0;
    Uutc end = 0;

    Uutc duration() const { return end - start; }
    bool empty() const { return end <= start; }
    bool contains(Uutc t) const { return t >= start && t < end; }
    bool operator==(const TimeRange&) const = default;
};

// A channel's sample grid: sample i lies at origin + i * 1e6 / fs microseconds.
struct SampleGrid {
    Uutc origin = 0;
    double fs = 1.0; // samples per second, possibly fractional

    // Time of sample i, rounded to the nearest microsecond.
    Uutc timeOf(std::int64_t index) const
    {
        return origin + static_cast<Uutc>(std::llround(static_cast<double>(index) * 1e6 / fs));
    }
    // Index of the grid point nearest to t.
    std::int64_t nearestIndex(Uutc t) const { return std::llround(static_cast<double>(t - origin) * fs / 1e6); }
    // First index whose time is >= t.
    std::int64_t firstIndexAtOrAfter(Uutc t) const
    {
        std::int64_t i = static_cast<std::int64_t>(std::ceil(static_cast<double>(t - origin) * fs / 1e6 - 1e-9));
        while (i > 0 && timeOf(i - 1) >= t) --i;
        while (timeOf(i) < t) ++i;
        return i;
    }
};

} // namespace lv::core
