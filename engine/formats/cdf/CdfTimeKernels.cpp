// The choice of CDF time kernels (compiled without SIMD flags: it runs on every CPU).
#include "formats/cdf/CdfTimeKernels.h"

#include "formats/cdf/CdfTime.h"

namespace lv::formats::cdf {

TimeKernels timeKernelsFor(core::SimdLevel level)
{
    switch (level) {
#if defined(LONGVIEW_CDF_X86_KERNELS)
    case core::SimdLevel::Avx512:
        return {level, &avx512::tt2000ToUnixNs, &avx512::epochToUnixNs};
    case core::SimdLevel::Avx2:
        return {level, &avx2::tt2000ToUnixNs, &avx2::epochToUnixNs};
#endif
    default:
        return {core::SimdLevel::Scalar, &tt2000ToUnixNsScalar, &epochToUnixNsScalar};
    }
}

const TimeKernels& timeKernels()
{
    static const TimeKernels chosen = timeKernelsFor(core::bestSimdLevel());
    return chosen;
}

} // namespace lv::formats::cdf
