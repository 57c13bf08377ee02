// Carry-less-multiply (PCLMULQDQ) folding of the MEF 3.0 CRC-32 for the reflected Koopman polynomial, after
// Intel's "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ" (the structure of zlib's crc32_simd).
// Built with -mpclmul -msse4.1 and called only where the CPU has both (Crc32.cpp checks at run time).
#include "formats/mef3/Crc32.h"

#include <emmintrin.h>
#include <smmintrin.h>
#include <wmmintrin.h>

namespace lv::formats::mef3::detail {

namespace {

// (x^n mod P)' << 1, reflected, for P the Koopman polynomial 0x741B8CD7 (reflected 0xEB31D82E); computed
// by tests' reference (Crc32Test checks every path against the table CRC).
alignas(16) constexpr std::uint64_t kFold4[2] = {0x1c06a9816, 0x0be6d8f38};   // x^(4*128+32), x^(4*128-32)
alignas(16) constexpr std::uint64_t kFold1[2] = {0x07b4bc878, 0x14b0602f8};   // x^(128+32), x^(128-32)
alignas(16) constexpr std::uint64_t kFold64[2] = {0x018c5564c, 0};            // x^64
alignas(16) constexpr std::uint64_t kBarrett[2] = {0x1d663b05d, 0x017d232cd}; // P', floor(x^64 / P)'

inline __m128i fold(__m128i x, __m128i k, __m128i next)
{
    const __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
    const __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
    return _mm_xor_si128(_mm_xor_si128(lo, hi), next);
}

inline __m128i load(const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }

} // namespace

std::uint32_t crc32UpdateClmul(std::uint32_t crc, const std::uint8_t* p, std::size_t n)
{
    __m128i x1 = _mm_xor_si128(load(p), _mm_cvtsi32_si128(static_cast<int>(crc)));
    __m128i x2 = load(p + 16), x3 = load(p + 32), x4 = load(p + 48);
    p += 64;
    n -= 64;
    __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(kFold4));
    for (; n >= 64; p += 64, n -= 64) {
        x1 = fold(x1, k, load(p));
        x2 = fold(x2, k, load(p + 16));
        x3 = fold(x3, k, load(p + 32));
        x4 = fold(x4, k, load(p + 48));
    }
    k = _mm_load_si128(reinterpret_cast<const __m128i*>(kFold1));
    x1 = fold(x1, k, x2);
    x1 = fold(x1, k, x3);
    x1 = fold(x1, k, x4);
    for (; n >= 16; p += 16, n -= 16) x1 = fold(x1, k, load(p));

    // 128 bits to 64.
    const __m128i mask32 = _mm_setr_epi32(~0, 0, ~0, 0);
    __m128i x2r = _mm_clmulepi64_si128(x1, k, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x2r);
    k = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(kFold64));
    x2r = _mm_srli_si128(x1, 4);
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k, 0x00), x2r);

    // Barrett reduction to 32 bits.
    k = _mm_load_si128(reinterpret_cast<const __m128i*>(kBarrett));
    x2r = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k, 0x10);
    x2r = _mm_clmulepi64_si128(_mm_and_si128(x2r, mask32), k, 0x00);
    x1 = _mm_xor_si128(x1, x2r);
    return static_cast<std::uint32_t>(_mm_extract_epi32(x1, 1));
}

} // namespace lv::formats::mef3::detail
