// The CDF time kernels for AVX-512 F/DQ/VL/BW (this file alone is compiled with their flags; see CdfTimeBatch.h);
// xsimd's avx512dq architecture: its avx512bw blend does not compile for `long long` (int64_t on Windows).
// GCC 12 sees an uninitialised operand inside its own _mm512_roundscale_pd (xsimd's floor and round; "maybe" at
// -O2, certain at -O1 with the sanitizers): a false positive of the intrinsic's header.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#define LONGVIEW_CDF_KERNEL_NAMESPACE avx512
#include "formats/cdf/CdfTimeBatch.h"
#include "formats/cdf/CdfTimeKernels.h"

namespace lv::formats::cdf::avx512 {

void tt2000ToUnixNs(const std::int64_t* in, std::size_t count, std::int64_t* out)
{
    tt2000Batches<xsimd::avx512dq>(in, count, out);
}

void epochToUnixNs(const double* in, std::size_t count, std::int64_t* out)
{
    epochBatches<xsimd::avx512dq>(in, count, out);
}

} // namespace lv::formats::cdf::avx512
