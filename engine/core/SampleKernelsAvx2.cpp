// The AVX2 sample kernels (compiled with -mavx2 and without contraction into FMA, so that products and sums round
// as the scalar code's do), each with the scalar code for the tail.
#include "core/SampleKernels.h"

#include "core/Recording.h"

#include <cmath>
#include <immintrin.h>

namespace lv::core::avx2 {

// 16 samples a step: two 8-lane sign extensions of 16 bytes each.
void widenInt16Le(const std::uint8_t* in, std::size_t count, std::int32_t* out)
{
    std::size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * i));
        const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * i + 16));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_cvtepi16_epi32(low));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 8), _mm256_cvtepi16_epi32(high));
    }
    scalar::widenInt16Le(in + 2 * i, count - i, out + i);
}

// 8 samples (24 bytes, six dwords loaded under a mask: nothing is read past them) a step: dwords 0-3 and 3-6 to the
// two 128-bit lanes, each lane's four samples shuffled into place and shifted.
void widenInt24Le(const std::uint8_t* in, std::size_t count, std::int32_t* out)
{
    const __m256i six = _mm256_setr_epi32(-1, -1, -1, -1, -1, -1, 0, 0);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6);
    // Per 128-bit lane: four samples from bytes 0..11 to the upper three bytes of four int32 lanes (byte 0 of each
    // zeroed), so that an arithmetic shift right by 8 sign-extends them. A local: a namespace-scope vector would be
    // built with AVX2 instructions at start-up, on every CPU.
    const __m256i shuffle = _mm256_setr_epi8(-128, 0, 1, 2, -128, 3, 4, 5, -128, 6, 7, 8, -128, 9, 10, 11, //
                                             -128, 0, 1, 2, -128, 3, 4, 5, -128, 6, 7, 8, -128, 9, 10, 11);
    std::size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256i bytes = _mm256_maskload_epi32(reinterpret_cast<const int*>(in + 3 * i), six);
        const __m256i placed = _mm256_shuffle_epi8(_mm256_permutevar8x32_epi32(bytes, lanes), shuffle);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm256_srai_epi32(placed, 8));
    }
    scalar::widenInt24Le(in + 3 * i, count - i, out + i);
}

// Two compares and an OR per 8 values; the verdict is taken once at the end.
bool allWithin(const std::int32_t* in, std::size_t count, std::int32_t low, std::int32_t high)
{
    const __m256i lo = _mm256_set1_epi32(low), hi = _mm256_set1_epi32(high);
    __m256i outside = _mm256_setzero_si256();
    std::size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
        outside = _mm256_or_si256(outside, _mm256_or_si256(_mm256_cmpgt_epi32(lo, v), _mm256_cmpgt_epi32(v, hi)));
    }
    return _mm256_testz_si256(outside, outside) && scalar::allWithin(in + i, count - i, low, high);
}

// 8 counts a step: each half converted exactly to four doubles, multiplied, added (rounded twice, as the scalar
// code is), NaN where a count is kNoSample.
void countsToPhysical(const std::int32_t* in, std::size_t count, double factor, double offset, double* out)
{
    const __m256d f = _mm256_set1_pd(factor), o = _mm256_set1_pd(offset), nan = _mm256_set1_pd(std::nan(""));
    const __m128i missing = _mm_set1_epi32(kNoSample);
    std::size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        for (std::size_t half = 0; half < 8; half += 4) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i + half));
            const __m256d x = _mm256_add_pd(_mm256_mul_pd(_mm256_cvtepi32_pd(v), f), o);
            const __m256d gap = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm_cmpeq_epi32(v, missing)));
            _mm256_storeu_pd(out + i + half, _mm256_blendv_pd(x, nan, gap));
        }
    }
    scalar::countsToPhysical(in + i, count - i, factor, offset, out + i);
}

} // namespace lv::core::avx2
