// Arrays of CDF epochs to UTC ns with SIMD, chosen at run time: AVX2 or AVX-512 (each kernel in its own translation
// unit with its own flags), else the scalar code of CdfTime. Every kernel gives exactly the scalar results. SSE2 has
// no 64-bit integer compare or multiply: xsimd emulates them lane by lane, and SSE2 kernels measured 2.4x (TT2000)
// and 5x (EPOCH) slower than the scalar code (bench/README.md), so SSE2 CPUs run the scalar code.
#pragma once

#include "core/SimdLevel.h"

#include <cstddef>
#include <cstdint>

namespace lv::formats::cdf {

struct TimeKernels {
    core::SimdLevel level = core::SimdLevel::Scalar;
    void (*tt2000)(const std::int64_t* in, std::size_t count, std::int64_t* out) = nullptr;
    void (*epoch)(const double* in, std::size_t count, std::int64_t* out) = nullptr;
};

// The kernels of core::bestSimdLevel(), chosen at the first call.
const TimeKernels& timeKernels();
// The kernels of `level` (which this CPU must run; tests compare every level with the scalar one): the scalar code
// below AVX2.
TimeKernels timeKernelsFor(core::SimdLevel level);

namespace avx2 {
void tt2000ToUnixNs(const std::int64_t* in, std::size_t count, std::int64_t* out);
void epochToUnixNs(const double* in, std::size_t count, std::int64_t* out);
} // namespace avx2
namespace avx512 {
void tt2000ToUnixNs(const std::int64_t* in, std::size_t count, std::int64_t* out);
void epochToUnixNs(const double* in, std::size_t count, std::int64_t* out);
} // namespace avx512

} // namespace lv::formats::cdf
