// CDF's three epochs to ns since 1970-01-01 UTC (the model's time, without leap seconds): CDF_EPOCH (ms since
// 0000-01-01 as a double), CDF_EPOCH16 (s and ps since 0000-01-01) and TIME_TT2000 (ns of TT since J2000, through
// the leap second table and, before 1972, the TAI-UTC drift formula). One value at a time; CdfTimeKernels converts
// arrays with SIMD and gives the same results.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace lv::formats::cdf {

// A time the value does not give: fill and pad values, and values outside the ns range of int64.
inline constexpr std::int64_t kNoTime = std::numeric_limits<std::int64_t>::min();

// ms from 0000-01-01 to 1970-01-01 (CDF_EPOCH), and s (CDF_EPOCH16).
inline constexpr double kEpochUnixMs = 62167219200000.0;
inline constexpr double kEpoch16UnixS = 62167219200.0;
// J2000 (2000-01-01T12:00:00 TT) on the TAI clock, read as if it were UTC, in ns since 1970: 11:59:27.816.
inline constexpr std::int64_t kJ2000TaiNs = 946727967816000000;

// A leap second: from `unixSeconds` (UTC, 00:00:00 of the day after the leap) TAI - UTC is `taiMinusUtc` s.
struct LeapSecond {
    std::int64_t unixSeconds;
    int taiMinusUtc;
};
inline constexpr LeapSecond kLeapSeconds[] = {
    {63072000, 10},   {78796800, 11},   {94694400, 12},   {126230400, 13},  {157766400, 14}, {189302400, 15},
    {220924800, 16},  {252460800, 17},  {283996800, 18},  {315532800, 19},  {362793600, 20}, {394329600, 21},
    {425865600, 22},  {489024000, 23},  {567993600, 24},  {631152000, 25},  {662688000, 26}, {709948800, 27},
    {741484800, 28},  {773020800, 29},  {820454400, 30},  {867715200, 31},  {915148800, 32}, {1136073600, 33},
    {1230768000, 34}, {1341100800, 35}, {1435708800, 36}, {1483228800, 37},
};
inline constexpr std::size_t kLeapSecondCount = sizeof(kLeapSeconds) / sizeof(kLeapSeconds[0]);
// The TT2000 value at which leap table entry i takes effect (00:00:00 UTC of its day).
constexpr std::int64_t leapTt2000(std::size_t i)
{
    return (kLeapSeconds[i].unixSeconds + kLeapSeconds[i].taiMinusUtc) * 1000000000 - kJ2000TaiNs;
}

// TT2000 to UTC ns. A value inside a leap second (23:59:60.x) reads as 23:59:59.999999999, so that times keep
// their order; before 1972, UTC drifted against TAI (USNO's formula, as NASA's library): within a few ms of other
// readers there.
std::int64_t tt2000ToUnixNs(std::int64_t tt2000);
// CDF_EPOCH to ns, rounded to the nearest ns (half away from zero).
std::int64_t epochToUnixNs(double ms);
// CDF_EPOCH16 to ns: the ps below a ns dropped.
std::int64_t epoch16ToUnixNs(double seconds, double picoseconds);

// The same over arrays, one value at a time: the kernels' scalar fallback and reference.
void tt2000ToUnixNsScalar(const std::int64_t* in, std::size_t count, std::int64_t* out);
void epochToUnixNsScalar(const double* in, std::size_t count, std::int64_t* out);

} // namespace lv::formats::cdf
