// Time in microseconds UTC (uUTC), half-open time ranges, and the sample grid of a channel.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace lv::core {

using Uutc = std::int64_t; // microseconds since 1970-01-01T00:00:00Z

inline constexpr Uutc kNoTime = std::numeric_limits<Uutc>::min();

// Sampling rates a file may declare. Above 1 MHz two samples would share a microsecond, the resolution of every
// time this program keeps (uUTC), so the grid could not tell them apart; below one sample per 11.6 days
// (1e-6 Hz) no recording device samples, and such rates are what damaged or uninitialised fields give.
inline constexpr double kMinSamplingRate = 1e-6;
inline constexpr double kMaxSamplingRate = 1e6;
inline bool plausibleSamplingRate(double fs) { return fs >= kMinSamplingRate && fs <= kMaxSamplingRate; }

// Half-open interval [start, end) in uUTC.
struct TimeRange {
    Uutc start = 0;
    Uutc end = 0;

    Uutc duration() const { return end - start; }
    bool empty() const { return end <= start; }
    bool contains(Uutc t) const { return t >= start && t < end; }
    bool operator==(const TimeRange&) const = default;
};

// A double rounded to the nearest int64, saturating at the int64 limits (NaN gives 0): never undefined.
inline std::int64_t saturatingRound(double v)
{
    constexpr double kLimit = 9.2233720368547748e18; // 2^63, the first double past INT64_MAX
    if (std::isnan(v)) return 0;
    if (v >= kLimit) return std::numeric_limits<std::int64_t>::max();
    if (v <= -kLimit) return std::numeric_limits<std::int64_t>::min();
    return std::llround(v);
}

// a + b, saturating at the int64 limits.
inline std::int64_t saturatingAdd(std::int64_t a, std::int64_t b)
{
    std::int64_t sum = 0;
    if (!__builtin_add_overflow(a, b, &sum)) return sum;
    return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

// Microseconds as nanoseconds (irregular channels' times), saturating at the int64 limits.
inline std::int64_t usToNs(Uutc t)
{
    std::int64_t ns = 0;
    if (!__builtin_mul_overflow(t, std::int64_t{1000}, &ns)) return ns;
    return t > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

// The microsecond that holds a time in nanoseconds (rounded down, also before 1970).
inline Uutc nsToUs(std::int64_t ns) { return ns >= 0 ? ns / 1000 : -((-(ns + 1)) / 1000) - 1; }

// A channel's sample grid: sample i lies at origin + i * 1e6 / fs microseconds. Every function is defined for
// every input (saturating at the int64 limits) and takes a bounded number of steps, whatever fs is.
struct SampleGrid {
    Uutc origin = 0;
    double fs = 1.0; // samples per second, possibly fractional

    // Time of sample i, rounded to the nearest microsecond.
    Uutc timeOf(std::int64_t index) const
    {
        return saturatingAdd(origin, saturatingRound(static_cast<double>(index) * 1e6 / fs));
    }
    // Index of the grid point nearest to t.
    std::int64_t nearestIndex(Uutc t) const { return saturatingRound(offsetOf(t) * fs / 1e6); }
    // First index whose time is >= t (saturated at the int64 limits when no such index is representable).
    std::int64_t firstIndexAtOrAfter(Uutc t) const
    {
        constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
        constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
        std::int64_t i = saturatingRound(std::ceil(offsetOf(t) * fs / 1e6 - 1e-9));
        if (i == kMax || i == kMin) return i;
        // The estimate is off by a rounding step at most for any grid whose points are distinct microseconds;
        // the bound keeps a grid finer than that (where several points share a microsecond) from looping.
        for (int step = 0; step < 64 && i > kMin && timeOf(i - 1) >= t; ++step) --i;
        for (int step = 0; step < 64 && i < kMax && timeOf(i) < t; ++step) ++i;
        return i;
    }

private:
    double offsetOf(Uutc t) const { return static_cast<double>(static_cast<__int128>(t) - origin); }
};

} // namespace lv::core
