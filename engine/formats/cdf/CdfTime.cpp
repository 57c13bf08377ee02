// CDF epochs to UTC ns, one value at a time (no SIMD flags: the fallback of CdfTimeKernels).
#include "formats/cdf/CdfTime.h"

#include <cmath>

namespace lv::formats::cdf {

namespace {

// TAI - UTC from 1960 to 1972 (USNO tai-utc.dat, NASA's CDFLeapSeconds.txt): base + (MJD - mjd) * rate seconds.
struct Drift {
    std::int64_t unixSeconds; // the UTC day it starts
    double base, mjd, rate;
};
constexpr Drift kDrift[] = {
    {-315619200, 1.4178180, 37300.0, 0.0012960}, // 1960-01-01
    {-283996800, 1.4228180, 37300.0, 0.0012960}, // 1961-01-01
    {-265680000, 1.3728180, 37300.0, 0.0012960}, // 1961-08-01
    {-252460800, 1.8458580, 37665.0, 0.0011232}, // 1962-01-01
    {-194659200, 1.9458580, 37665.0, 0.0011232}, // 1963-11-01
    {-189388800, 3.2401300, 38761.0, 0.0012960}, // 1964-01-01
    {-181526400, 3.3401300, 38761.0, 0.0012960}, // 1964-04-01
    {-168307200, 3.4401300, 38761.0, 0.0012960}, // 1964-09-01
    {-157766400, 3.5401300, 38761.0, 0.0012960}, // 1965-01-01
    {-152668800, 3.6401300, 38761.0, 0.0012960}, // 1965-03-01
    {-142128000, 3.7401300, 38761.0, 0.0012960}, // 1965-07-01
    {-136771200, 3.8401300, 38761.0, 0.0012960}, // 1965-09-01
    {-126230400, 4.3131700, 39126.0, 0.0025920}, // 1966-01-01
    {-60480000, 4.2131700, 39126.0, 0.0025920},  // 1968-02-01
};

// TAI - UTC in s at UTC time `unixSeconds` before 1972.
double driftAt(double unixSeconds)
{
    double offset = 0.0;
    for (const Drift& d : kDrift)
        if (unixSeconds >= static_cast<double>(d.unixSeconds))
            offset = d.base + (std::floor(unixSeconds / 86400.0) + 40587.0 - d.mjd) * d.rate;
    return offset;
}

std::int64_t before1972(std::int64_t tt2000)
{
    const double tai = static_cast<double>(tt2000) * 1e-9 + static_cast<double>(kJ2000TaiNs) * 1e-9;
    double utc = tai;
    for (int i = 0; i < 3; ++i) utc = tai - driftAt(utc); // the day's drift depends on UTC: converges at once
    return static_cast<std::int64_t>(std::llround(utc * 1e6)) * 1000;
}

} // namespace

std::int64_t tt2000ToUnixNs(std::int64_t tt2000)
{
    if (tt2000 <= std::numeric_limits<std::int64_t>::min() + 1) return kNoTime; // fill, pad
    if (tt2000 < leapTt2000(0)) return before1972(tt2000);
    std::size_t after = kLeapSecondCount; // leap table entries in effect: most times are after the last
    while (after > 0 && tt2000 < leapTt2000(after - 1)) --after;
    if (after < kLeapSecondCount && tt2000 >= leapTt2000(after) - 1000000000)
        return kLeapSeconds[after].unixSeconds * 1000000000 - 1; // inside the leap second
    if (tt2000 > std::numeric_limits<std::int64_t>::max() - kJ2000TaiNs) return kNoTime;
    return tt2000 + kJ2000TaiNs - std::int64_t{kLeapSeconds[after - 1].taiMinusUtc} * 1000000000;
}

std::int64_t epochToUnixNs(double ms)
{
    const double d = ms - kEpochUnixMs;
    if (!(ms > 0.0) || !(std::abs(d) < 9.2e12)) return kNoTime; // pad 0, fill -1e31, NaN, beyond int64 ns
    const double whole = std::floor(d);
    return static_cast<std::int64_t>(whole) * 1000000 + static_cast<std::int64_t>(std::round((d - whole) * 1e6));
}

std::int64_t epoch16ToUnixNs(double seconds, double picoseconds)
{
    const double s = seconds - kEpoch16UnixS;
    if (!(seconds > 0.0) || !(std::abs(s) < 9.2e9) || !(picoseconds >= 0.0) || !(picoseconds < 1e12)) return kNoTime;
    return static_cast<std::int64_t>(s) * 1000000000 + static_cast<std::int64_t>(picoseconds / 1000.0);
}

void tt2000ToUnixNsScalar(const std::int64_t* in, std::size_t count, std::int64_t* out)
{
    for (std::size_t i = 0; i < count; ++i) out[i] = tt2000ToUnixNs(in[i]);
}

void epochToUnixNsScalar(const double* in, std::size_t count, std::int64_t* out)
{
    for (std::size_t i = 0; i < count; ++i) out[i] = epochToUnixNs(in[i]);
}

} // namespace lv::formats::cdf
