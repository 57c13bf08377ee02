// Sample conversion kernels (the filters' is filter/CascadeLanes): stored integers to counts, counts to physical
// values, chosen at run time by instruction set. Every level's results are bit-identical to the plain scalar
// expressions they replace.
#pragma once

#include "core/SimdLevel.h"

#include <cstddef>
#include <cstdint>

namespace lv::core {

// Little-endian int16 samples (EDF) to int32 counts: count values in, count values out.
void widenInt16Le(const std::uint8_t* in, std::size_t count, std::int32_t* out);
// Little-endian int24 samples (BDF) to sign-extended int32 counts.
void widenInt24Le(const std::uint8_t* in, std::size_t count, std::int32_t* out);
// Whether every one of `count` values lies in [low, high] (the EDF digital range check on every read).
bool allWithin(const std::int32_t* in, std::size_t count, std::int32_t low, std::int32_t high);
// Physical values: out[i] = double(in[i]) * factor + offset, NaN where in[i] is kNoSample.
void countsToPhysical(const std::int32_t* in, std::size_t count, double factor, double offset, double* out);

// One instruction set's kernels: plain loops (Scalar), xsimd on the build's baseline (SSE2 on x86-64, NEON on
// arm64), or AVX2 (their own translation unit with its own flags). AVX-512 CPUs run the AVX2 kernels: the kernels
// are bound by memory, not by lane count, and no machine here runs AVX-512 to test them on.
struct SampleKernelSet {
    SimdLevel level = SimdLevel::Scalar;
    void (*widenInt16Le)(const std::uint8_t*, std::size_t, std::int32_t*) = nullptr;
    void (*widenInt24Le)(const std::uint8_t*, std::size_t, std::int32_t*) = nullptr;
    bool (*allWithin)(const std::int32_t*, std::size_t, std::int32_t, std::int32_t) = nullptr;
    void (*countsToPhysical)(const std::int32_t*, std::size_t, double, double, double*) = nullptr;
};

// The kernels of bestSimdLevel(), chosen at the first call.
const SampleKernelSet& sampleKernels();
// The kernels of `level` (which this CPU must run; tests compare every level with the scalar one): AVX-512 gives
// AVX2's; off x86-64 every level above Scalar gives the baseline's.
SampleKernelSet sampleKernelsFor(SimdLevel level);

namespace scalar {
void widenInt16Le(const std::uint8_t* in, std::size_t count, std::int32_t* out);
void widenInt24Le(const std::uint8_t* in, std::size_t count, std::int32_t* out);
bool allWithin(const std::int32_t* in, std::size_t count, std::int32_t low, std::int32_t high);
void countsToPhysical(const std::int32_t* in, std::size_t count, double factor, double offset, double* out);
} // namespace scalar
namespace baseline { // int24 widening needs byte shuffles (SSSE3 and later): the baseline uses the scalar loop
void widenInt16Le(const std::uint8_t* in, std::size_t count, std::int32_t* out);
bool allWithin(const std::int32_t* in, std::size_t count, std::int32_t low, std::int32_t high);
void countsToPhysical(const std::int32_t* in, std::size_t count, double factor, double offset, double* out);
} // namespace baseline
namespace avx2 {
void widenInt16Le(const std::uint8_t* in, std::size_t count, std::int32_t* out);
void widenInt24Le(const std::uint8_t* in, std::size_t count, std::int32_t* out);
bool allWithin(const std::int32_t* in, std::size_t count, std::int32_t low, std::int32_t high);
void countsToPhysical(const std::int32_t* in, std::size_t count, double factor, double offset, double* out);
} // namespace avx2

} // namespace lv::core
