// The CDF time kernels as xsimd templates over one architecture: included only by CdfTimeAvx2.cpp and
// CdfTimeAvx512.cpp, each compiled with its own flags, inside a namespace of its own so that nothing it emits is shared
// with another translation unit. Lanes the vector code does not take (fill values, times before 1972) go to CdfTime's
// scalar functions, which live in a file without SIMD flags.
#pragma once

#include "formats/cdf/CdfTime.h"

#include <xsimd/xsimd.hpp>

namespace lv::formats::cdf::LONGVIEW_CDF_KERNEL_NAMESPACE {
namespace {

template <class Arch>
void tt2000Batches(const std::int64_t* in, std::size_t count, std::int64_t* out)
{
    using Ints = xsimd::batch<std::int64_t, Arch>;
    constexpr std::size_t kLanes = Ints::size;
    const Ints first(leapTt2000(0)), second(1000000000), base(kJ2000TaiNs - std::int64_t{9} * 1000000000);
    const Ints limit(std::numeric_limits<std::int64_t>::max() - kJ2000TaiNs);
    std::size_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
        const Ints t = Ints::load_unaligned(in + i);
        if (xsimd::any(t < first) || xsimd::any(t > limit)) { // fill, pad, before 1972, beyond int64 ns
            tt2000ToUnixNsScalar(in + i, kLanes, out + i);
            continue;
        }
        Ints utc = t + base; // TAI - UTC = 9 s, less one per leap second in effect
        Ints inLeap(0);
        for (std::size_t k = 0; k < kLeapSecondCount; ++k) {
            const Ints at(leapTt2000(k));
            utc = xsimd::select(t >= at, utc - second, utc);
            if (k > 0)
                inLeap = xsimd::select(t >= at - second && t < at, Ints(kLeapSeconds[k].unixSeconds * 1000000000 - 1),
                                       inLeap);
        }
        xsimd::select(inLeap != Ints(0), inLeap, utc).store_unaligned(out + i);
    }
    tt2000ToUnixNsScalar(in + i, count - i, out + i);
}

// Whole doubles below 2^51 in magnitude to int64 exactly: the bits of x + 1.5 * 2^52 less those of 1.5 * 2^52.
template <class Arch>
xsimd::batch<std::int64_t, Arch> wholeToInt(const xsimd::batch<double, Arch>& x)
{
    const xsimd::batch<double, Arch> magic(0x1.8p52);
    return xsimd::bitwise_cast<xsimd::batch<std::int64_t, Arch>>(x + magic) -
           xsimd::bitwise_cast<xsimd::batch<std::int64_t, Arch>>(magic);
}

template <class Arch>
void epochBatches(const double* in, std::size_t count, std::int64_t* out)
{
    using Doubles = xsimd::batch<double, Arch>;
    constexpr std::size_t kLanes = Doubles::size;
    const Doubles offset(kEpochUnixMs), zero(0.0), range(9.2e12), million(1e6);
    std::size_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
        const Doubles ms = Doubles::load_unaligned(in + i);
        const Doubles d = ms - offset;
        if (!xsimd::all(ms > zero && xsimd::abs(d) < range)) { // pad, fill, NaN, beyond int64 ns
            epochToUnixNsScalar(in + i, kLanes, out + i);
            continue;
        }
        const Doubles whole = xsimd::floor(d);
        const auto ns = wholeToInt(whole) * xsimd::batch<std::int64_t, Arch>(1000000) +
                        wholeToInt(xsimd::round((d - whole) * million));
        ns.store_unaligned(out + i);
    }
    epochToUnixNsScalar(in + i, count - i, out + i);
}

} // namespace
} // namespace lv::formats::cdf::LONGVIEW_CDF_KERNEL_NAMESPACE
