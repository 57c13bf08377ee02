// The SIMD kernels against the scalar expressions they replace, bit for bit, at every offset and length: the chosen
// kernels through the public functions, and every instruction set this CPU runs against the plain loops.
#include "core/SampleKernels.h"
#include "core/Recording.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

namespace lv::core {
namespace {

std::uint64_t bits(double v)
{
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

// The instruction sets this CPU runs, above the plain loops.
std::vector<SampleKernelSet> simdLevels()
{
    std::vector<SampleKernelSet> sets;
    for (SimdLevel level : {SimdLevel::Sse2, SimdLevel::Avx2})
        if (cpuRuns(level)) sets.push_back(sampleKernelsFor(level));
    return sets;
}

std::vector<std::uint8_t> randomBytes(std::size_t n, std::uint32_t seed)
{
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> b(n);
    for (auto& v : b) v = static_cast<std::uint8_t>(rng());
    return b;
}

TEST(SampleKernels, TheChosenLevelIsTheBestThisCpuRuns)
{
    const SimdLevel best = bestSimdLevel();
    const SimdLevel expected = best == SimdLevel::Avx512 ? SimdLevel::Avx2 : best;
#if defined(__x86_64__)
    EXPECT_EQ(sampleKernels().level, expected);
#endif
    EXPECT_EQ(sampleKernelsFor(SimdLevel::Scalar).level, SimdLevel::Scalar);
    EXPECT_EQ(sampleKernelsFor(SimdLevel::Scalar).widenInt24Le, &scalar::widenInt24Le);
}

// Widening at every start byte and length up to 80 samples, and a long run: every level writes what the plain loop
// writes, and nothing past the end.
TEST(SampleKernels, EveryLevelWidensAsThePlainLoopsAtEveryAlignmentAndLength)
{
    const std::vector<std::uint8_t> bytes = randomBytes(3 * 4096 + 64, 21);
    std::vector<std::size_t> lengths(81);
    std::iota(lengths.begin(), lengths.end(), 0);
    lengths.insert(lengths.end(), {100, 257, 1000, 4096});
    const SampleKernelSet plain = sampleKernelsFor(SimdLevel::Scalar);
    for (const SampleKernelSet& set : simdLevels()) {
        for (std::size_t skip = 0; skip < 32; ++skip) {
            for (std::size_t n : lengths) {
                for (const int width : {2, 3}) {
                    std::vector<std::int32_t> want(n + 1, 7), got(n + 1, 7);
                    (width == 2 ? plain.widenInt16Le : plain.widenInt24Le)(bytes.data() + skip, n, want.data());
                    (width == 2 ? set.widenInt16Le : set.widenInt24Le)(bytes.data() + skip, n, got.data());
                    ASSERT_EQ(got, want) << simdLevelName(set.level) << " int" << width * 8 << " skip " << skip << " n "
                                         << n;
                }
            }
        }
    }
}

TEST(SampleKernels, EveryLevelChecksRangesAndConvertsAsThePlainLoops)
{
    std::mt19937 rng(33);
    std::vector<std::int32_t> counts{std::numeric_limits<std::int32_t>::max(), kNoSample + 1, 0, -1, 1, kNoSample};
    for (int i = 0; i < 3000; ++i) counts.push_back(static_cast<std::int32_t>(rng()));
    for (int i = 0; i < 200; ++i) counts.push_back(kNoSample);
    std::shuffle(counts.begin() + 6, counts.end(), rng);
    const SampleKernelSet plain = sampleKernelsFor(SimdLevel::Scalar);
    for (const SampleKernelSet& set : simdLevels()) {
        for (std::size_t skip = 0; skip < 9; ++skip) {
            for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 200u, 3000u}) {
                const std::int32_t* in = counts.data() + skip;
                for (const auto& [factor, offset] :
                     {std::pair{0.1, 0.0}, {1.0 / 3.0, -12.5}, {3.0517578125e-05, 1e-3}}) {
                    std::vector<double> want(n), got(n);
                    plain.countsToPhysical(in, n, factor, offset, want.data());
                    set.countsToPhysical(in, n, factor, offset, got.data());
                    for (std::size_t i = 0; i < n; ++i)
                        ASSERT_EQ(bits(got[i]), bits(want[i])) << simdLevelName(set.level) << " count " << in[i];
                }
                for (const auto& [low, high] : {std::pair{-100, 100},
                                                {std::numeric_limits<std::int32_t>::min(), 0},
                                                {kNoSample + 1, std::numeric_limits<std::int32_t>::max()}}) {
                    ASSERT_EQ(set.allWithin(in, n, low, high), plain.allWithin(in, n, low, high))
                        << simdLevelName(set.level) << " n " << n << " skip " << skip << " [" << low << ", " << high
                        << "]";
                }
            }
        }
    }
}

TEST(SampleKernels, EveryInt16ValueWidensAtEveryAlignment)
{
    std::vector<std::uint8_t> bytes;
    for (int v = -32768; v <= 32767; ++v) {
        bytes.push_back(static_cast<std::uint8_t>(v & 0xff));
        bytes.push_back(static_cast<std::uint8_t>((v >> 8) & 0xff));
    }
    for (std::size_t skip : {0u, 1u, 3u, 7u}) { // start at odd samples, so loads are unaligned
        const std::size_t n = bytes.size() / 2 - skip;
        std::vector<std::int32_t> out(n + 1, 12345);
        widenInt16Le(bytes.data() + 2 * skip, n, out.data());
        for (std::size_t i = 0; i < n; ++i)
            ASSERT_EQ(out[i], -32768 + static_cast<int>(i + skip)) << "sample " << i << " skip " << skip;
        EXPECT_EQ(out[n], 12345); // nothing written past the end
    }
}

TEST(SampleKernels, Int24SignExtends)
{
    const std::uint8_t bytes[] = {0xff, 0xff, 0x7f, 0x00, 0x00, 0x80, 0xff, 0xff, 0xff, 0x01, 0x00, 0x00};
    std::int32_t out[4] = {};
    widenInt24Le(bytes, 4, out);
    EXPECT_EQ(out[0], 8388607);
    EXPECT_EQ(out[1], -8388608);
    EXPECT_EQ(out[2], -1);
    EXPECT_EQ(out[3], 1);
}

TEST(SampleKernels, PhysicalValuesEqualTheScalarFormulaBitForBit)
{
    std::mt19937 rng(5);
    std::vector<std::int32_t> counts{std::numeric_limits<std::int32_t>::max(), kNoSample + 1, 0, -1, 1, kNoSample};
    for (int i = 0; i < 10'000; ++i) counts.push_back(static_cast<std::int32_t>(rng()));
    for (int i = 0; i < 100; ++i) counts.push_back(kNoSample);
    std::shuffle(counts.begin() + 6, counts.end(), rng);
    for (const auto& [factor, offset] : {std::pair{0.1, 0.0}, {1.0 / 3.0, -12.5}, {3.0517578125e-05, 1e-300}}) {
        for (std::size_t len : {counts.size(), std::size_t{1}, std::size_t{3}, std::size_t{5}}) {
            std::vector<double> out(len);
            countsToPhysical(counts.data(), len, factor, offset, out.data());
            for (std::size_t i = 0; i < len; ++i) {
                const double want =
                    counts[i] == kNoSample ? std::nan("") : static_cast<double>(counts[i]) * factor + offset;
                ASSERT_EQ(bits(out[i]), bits(want)) << "count " << counts[i] << " factor " << factor;
            }
        }
    }
}

TEST(SampleKernels, AllWithinAgreesWithTheScalarCheckAtEveryLengthAndPosition)
{
    std::mt19937 random(11);
    std::uniform_int_distribution<std::int32_t> inside(-100, 100);
    for (std::size_t count = 0; count <= 40; ++count) {
        std::vector<std::int32_t> v(count);
        for (auto& x : v) x = inside(random);
        EXPECT_TRUE(allWithin(v.data(), count, -100, 100)) << count;
        for (std::size_t at = 0; at < count; ++at) // one value outside, in the vector body or the scalar tail
            for (const std::int32_t bad :
                 {-101, 101, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()}) {
                const std::int32_t keep = v[at];
                v[at] = bad;
                EXPECT_FALSE(allWithin(v.data(), count, -100, 100)) << count << " " << at << " " << bad;
                v[at] = keep;
            }
        if (count > 0) {
            EXPECT_FALSE(allWithin(v.data(), count, 101, 200)) << count;
        }
    }
}

} // namespace
} // namespace lv::core
