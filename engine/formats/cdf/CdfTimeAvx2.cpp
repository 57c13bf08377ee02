// The CDF time kernels for AVX2 (this file alone is compiled with its flags; see CdfTimeBatch.h).
#define LONGVIEW_CDF_KERNEL_NAMESPACE avx2
#include "formats/cdf/CdfTimeBatch.h"
#include "formats/cdf/CdfTimeKernels.h"

namespace lv::formats::cdf::avx2 {

void tt2000ToUnixNs(const std::int64_t* in, std::size_t count, std::int64_t* out)
{
    tt2000Batches<xsimd::avx2>(in, count, out);
}

void epochToUnixNs(const double* in, std::size_t count, std::int64_t* out)
{
    epochBatches<xsimd::avx2>(in, count, out);
}

} // namespace lv::formats::cdf::avx2
