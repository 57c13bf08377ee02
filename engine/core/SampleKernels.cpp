// The sample kernels' plain loops and their choice at run time (compiled without SIMD flags: it runs on every CPU).
#include "core/SampleKernels.h"

#include "core/Recording.h"

#include <cmath>

namespace lv::core {

namespace scalar {

void widenInt16Le(const std::uint8_t* in, std::size_t count, std::int32_t* out)
{
    for (std::size_t i = 0; i < count; ++i)
        out[i] = static_cast<std::int16_t>(in[2 * i] | (static_cast<std::uint16_t>(in[2 * i + 1]) << 8));
}

void widenInt24Le(const std::uint8_t* in, std::size_t count, std::int32_t* out)
{
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint8_t* p = in + 3 * i;
        const std::uint32_t u =
            p[0] | (static_cast<std::uint32_t>(p[1]) << 8) | (static_cast<std::uint32_t>(p[2]) << 16);
        out[i] = static_cast<std::int32_t>(u << 8) >> 8;
    }
}

bool allWithin(const std::int32_t* in, std::size_t count, std::int32_t low, std::int32_t high)
{
    bool outside = false;
    for (std::size_t i = 0; i < count; ++i) outside = outside || in[i] < low || in[i] > high;
    return !outside;
}

void countsToPhysical(const std::int32_t* in, std::size_t count, double factor, double offset, double* out)
{
    for (std::size_t i = 0; i < count; ++i)
        out[i] = in[i] == kNoSample ? std::nan("") : static_cast<double>(in[i]) * factor + offset;
}

} // namespace scalar

SampleKernelSet sampleKernelsFor(SimdLevel level)
{
    switch (level) {
    case SimdLevel::Scalar:
        return {level, &scalar::widenInt16Le, &scalar::widenInt24Le, &scalar::allWithin, &scalar::countsToPhysical};
#if defined(LONGVIEW_CORE_X86_KERNELS)
    case SimdLevel::Avx512:
    case SimdLevel::Avx2:
        return {SimdLevel::Avx2, &avx2::widenInt16Le, &avx2::widenInt24Le, &avx2::allWithin, &avx2::countsToPhysical};
#endif
    default: // the xsimd baseline (SSE2, or NEON off x86-64); int24 needs byte shuffles it lacks
        return {SimdLevel::Sse2, &baseline::widenInt16Le, &scalar::widenInt24Le, &baseline::allWithin,
                &baseline::countsToPhysical};
    }
}

const SampleKernelSet& sampleKernels()
{
    static const SampleKernelSet chosen = sampleKernelsFor(bestSimdLevel());
    return chosen;
}

void widenInt16Le(const std::uint8_t* in, std::size_t count, std::int32_t* out)
{
    sampleKernels().widenInt16Le(in, count, out);
}

void widenInt24Le(const std::uint8_t* in, std::size_t count, std::int32_t* out)
{
    sampleKernels().widenInt24Le(in, count, out);
}

bool allWithin(const std::int32_t* in, std::size_t count, std::int32_t low, std::int32_t high)
{
    return sampleKernels().allWithin(in, count, low, high);
}

void countsToPhysical(const std::int32_t* in, std::size_t count, double factor, double offset, double* out)
{
    sampleKernels().countsToPhysical(in, count, factor, offset, out);
}

} // namespace lv::core
