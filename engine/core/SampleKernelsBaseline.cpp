// The baseline kernels: xsimd for the build's own SIMD architecture (SSE2 on x86-64, NEON on arm64), no extra flags,
// each with a scalar tail.
#include "core/SampleKernels.h"

#include "core/Recording.h"

#include <bit>
#include <cmath>
#include <xsimd/xsimd.hpp>

namespace lv::core::baseline {

namespace {

static_assert(std::endian::native == std::endian::little, "the kernels load little-endian samples directly");

using Int16s = xsimd::batch<std::int16_t>;
using Int32s = xsimd::batch<std::int32_t>;
using Doubles = xsimd::batch<double>;
constexpr std::size_t kLanes = Int32s::size;

std::int32_t widen16(const std::uint8_t* p)
{
    return static_cast<std::int16_t>(p[0] | (static_cast<std::uint16_t>(p[1]) << 8));
}

// Two doubles per 64-bit lane pair: the exact value of each int32 lane, by the 2^52 + 2^31 bias trick
// (bits 0x43300000'xxxxxxxx with xxxxxxxx = v ^ 0x80000000 hold 2^52 + 2^31 + v).
void toDoubles(Int32s v, Doubles& low, Doubles& high)
{
    const Int32s biased = v ^ Int32s(static_cast<std::int32_t>(0x80000000u));
    const Int32s exponent(0x43300000);
    const Doubles magic(4503601774854144.0); // 2^52 + 2^31
    low = xsimd::bitwise_cast<Doubles>(xsimd::zip_lo(biased, exponent)) - magic;
    high = xsimd::bitwise_cast<Doubles>(xsimd::zip_hi(biased, exponent)) - magic;
}

} // namespace

// One compare pair and an OR per kLanes values; the verdict is taken once at the end.
bool allWithin(const std::int32_t* in, std::size_t count, std::int32_t low, std::int32_t high)
{
    const Int32s lo(low), hi(high);
    auto outside = lo != lo; // all false
    std::size_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
        const Int32s v = Int32s::load_unaligned(in + i);
        outside = outside | (v < lo) | (v > hi);
    }
    bool any = xsimd::any(outside);
    for (; i < count; ++i) any = any || in[i] < low || in[i] > high;
    return !any;
}

// 2 * kLanes samples per step: each int16 paired with itself forms an int32 whose arithmetic shift right by 16
// is the sample sign-extended (two zips and two shifts per 2 * kLanes samples, as GCC's own vectorisation does).
void widenInt16Le(const std::uint8_t* in, std::size_t count, std::int32_t* out)
{
    std::size_t i = 0;
    for (; i + 2 * kLanes <= count; i += 2 * kLanes) {
        const Int16s v = Int16s::load_unaligned(reinterpret_cast<const std::int16_t*>(in + 2 * i));
        (xsimd::bitwise_cast<Int32s>(xsimd::zip_lo(v, v)) >> 16).store_unaligned(out + i);
        (xsimd::bitwise_cast<Int32s>(xsimd::zip_hi(v, v)) >> 16).store_unaligned(out + i + kLanes);
    }
    for (; i < count; ++i) out[i] = widen16(in + 2 * i);
}

void countsToPhysical(const std::int32_t* in, std::size_t count, double factor, double offset, double* out)
{
    const Doubles f(factor), o(offset), nan(std::nan("")), missing(static_cast<double>(kNoSample));
    std::size_t i = 0;
    for (; i + kLanes <= count; i += kLanes) {
        Doubles low, high;
        toDoubles(Int32s::load_unaligned(in + i), low, high);
        xsimd::select(low == missing, nan, low * f + o).store_unaligned(out + i);
        xsimd::select(high == missing, nan, high * f + o).store_unaligned(out + i + kLanes / 2);
    }
    for (; i < count; ++i) out[i] = in[i] == kNoSample ? std::nan("") : static_cast<double>(in[i]) * factor + offset;
}

} // namespace lv::core::baseline
