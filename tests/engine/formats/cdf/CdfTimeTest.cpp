// CDF epochs to UTC: known instants (J2000, leap seconds, fill values), and every SIMD kernel this CPU runs bit for
// bit against the scalar code on random values at every alignment.
#include "formats/cdf/CdfTime.h"
#include "formats/cdf/CdfTimeKernels.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

namespace lv::formats::cdf {
namespace {

constexpr std::int64_t kSecond = 1000000000;

TEST(CdfTime, Tt2000KnownInstants)
{
    EXPECT_EQ(tt2000ToUnixNs(0), 946727935816000000); // J2000: 2000-01-01T11:58:55.816 UTC
    // cdf-check's synthetic values around 2016-12-31T23:59:60: inside the leap second, then midnight.
    EXPECT_EQ(tt2000ToUnixNs(536500868184000000), 1483228800 * kSecond - 1);
    EXPECT_EQ(tt2000ToUnixNs(536500869184000000), 1483228800 * kSecond);
    EXPECT_EQ(tt2000ToUnixNs(536500867184000000), 1483228799 * kSecond);              // 23:59:59 before it
    EXPECT_EQ(tt2000ToUnixNs(std::numeric_limits<std::int64_t>::min()), kNoTime);     // fill
    EXPECT_EQ(tt2000ToUnixNs(std::numeric_limits<std::int64_t>::min() + 1), kNoTime); // pad
    EXPECT_EQ(tt2000ToUnixNs(std::numeric_limits<std::int64_t>::max()), kNoTime);
    // 1972-01-01T00:00:00 starts the table: TAI - UTC = 10 s.
    EXPECT_EQ(tt2000ToUnixNs(leapTt2000(0)), 63072000 * kSecond);
    // 1970-01-01 (drift formula): within the 1.3 ms the references differ by.
    EXPECT_NEAR(static_cast<double>(tt2000ToUnixNs(-946727959814622001)), 0.0, 1.3e6);
}

TEST(CdfTime, EpochsKnownInstants)
{
    EXPECT_EQ(epochToUnixNs(kEpochUnixMs), 0);
    EXPECT_EQ(epochToUnixNs(kEpochUnixMs + 1.5), 1500000);
    EXPECT_EQ(epochToUnixNs(kEpochUnixMs - 1.0), -1000000);
    EXPECT_EQ(epochToUnixNs(63429523200000.0), 1262304000 * kSecond); // 2010-01-01
    EXPECT_EQ(epochToUnixNs(-1e31), kNoTime);
    EXPECT_EQ(epochToUnixNs(0.0), kNoTime);
    EXPECT_EQ(epochToUnixNs(std::nan("")), kNoTime);
    EXPECT_EQ(epoch16ToUnixNs(kEpoch16UnixS + 2, 123456789999.0), 2 * kSecond + 123456789);
    EXPECT_EQ(epoch16ToUnixNs(-1e31, -1e31), kNoTime);
    EXPECT_EQ(epoch16ToUnixNs(0.0, 0.0), kNoTime);
}

std::vector<std::int64_t> tt2000Inputs(std::mt19937_64& rng, std::size_t n)
{
    std::vector<std::int64_t> in(n);
    std::uniform_int_distribution<std::int64_t> modern(leapTt2000(0), 1000000000LL * kSecond);
    std::uniform_int_distribution<std::int64_t> near(-2 * kSecond, 2 * kSecond);
    std::uniform_int_distribution<std::size_t> leap(0, kLeapSecondCount - 1), kind(0, 9);
    for (std::int64_t& t : in) {
        switch (kind(rng)) {
        case 0:
            t = std::numeric_limits<std::int64_t>::min() + static_cast<std::int64_t>(kind(rng) & 1);
            break;
        case 1:
            t = -946727959814622001 + near(rng) * 1000;
            break; // 1970
        case 2:
            t = std::numeric_limits<std::int64_t>::max() - std::abs(near(rng));
            break;
        case 3:
        case 4:
        case 5:
            t = leapTt2000(leap(rng)) + near(rng);
            break;
        default:
            t = modern(rng);
        }
    }
    return in;
}

std::vector<double> epochInputs(std::mt19937_64& rng, std::size_t n)
{
    std::vector<double> in(n);
    std::uniform_real_distribution<double> modern(kEpochUnixMs - 1e12, kEpochUnixMs + 3e12);
    std::uniform_int_distribution<std::int64_t> whole(-1000000000000, 3000000000000);
    std::uniform_int_distribution<int> kind(0, 9), micro(0, 999999);
    for (double& ms : in) {
        switch (kind(rng)) {
        case 0:
            ms = -1e31;
            break;
        case 1:
            ms = 0.0;
            break;
        case 2:
            ms = std::nan("");
            break;
        case 3:
            ms = kEpochUnixMs + 9.3e12;
            break;
        case 4:
            ms = kEpochUnixMs + static_cast<double>(whole(rng)) + (micro(rng) + 0.5) * 1e-6;
            break; // ties
        case 5:
            ms = kEpochUnixMs + static_cast<double>(whole(rng));
            break;
        default:
            ms = modern(rng);
        }
    }
    return in;
}

TEST(CdfTimeKernels, EveryLevelThisCpuRunsGivesTheScalarResultsBitForBit)
{
    std::mt19937_64 rng(20261206);
    const auto tt = tt2000Inputs(rng, 4096 + 7);
    const auto ep = epochInputs(rng, 4096 + 7);
    std::vector<std::int64_t> want(tt.size()), got(tt.size());
    int levels = 0;
    for (core::SimdLevel level : {core::SimdLevel::Avx2, core::SimdLevel::Avx512}) {
        if (!core::cpuRuns(level)) continue;
        const TimeKernels k = timeKernelsFor(level);
        ASSERT_EQ(k.level, level);
        ++levels;
        for (std::size_t offset = 0; offset < 8; ++offset)
            for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{17}, tt.size() - 8}) {
                SCOPED_TRACE(std::string(core::simdLevelName(level)) + " offset " + std::to_string(offset) + " n " +
                             std::to_string(n));
                tt2000ToUnixNsScalar(tt.data() + offset, n, want.data());
                std::fill(got.begin(), got.end(), 7);
                k.tt2000(tt.data() + offset, n, got.data());
                ASSERT_TRUE(std::equal(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(n), got.begin()));
                EXPECT_EQ(got[n], 7); // nothing written past the end
                epochToUnixNsScalar(ep.data() + offset, n, want.data());
                k.epoch(ep.data() + offset, n, got.data());
                ASSERT_TRUE(std::equal(want.begin(), want.begin() + static_cast<std::ptrdiff_t>(n), got.begin()));
            }
    }
    if (!core::cpuRuns(core::SimdLevel::Avx2)) GTEST_SKIP() << "this CPU runs no SIMD level of these kernels";
    EXPECT_GE(levels, 1);
}

TEST(CdfTimeKernels, TheScalarFallbackIsChosenWhenAsked)
{
    const TimeKernels k = timeKernelsFor(core::SimdLevel::Scalar);
    EXPECT_EQ(k.level, core::SimdLevel::Scalar);
    EXPECT_EQ(k.tt2000, &tt2000ToUnixNsScalar);
    EXPECT_EQ(timeKernelsFor(core::SimdLevel::Sse2).epoch, &epochToUnixNsScalar); // slower than scalar: not used
    ::setenv("LONGVIEW_SIMD", "scalar", 1);
    EXPECT_EQ(core::bestSimdLevel(), core::SimdLevel::Scalar);
    ::setenv("LONGVIEW_SIMD", "sse2", 1);
    EXPECT_LE(core::bestSimdLevel(), core::SimdLevel::Sse2);
    ::unsetenv("LONGVIEW_SIMD");
    EXPECT_EQ(timeKernels().level, core::bestSimdLevel());
}

} // namespace
} // namespace lv::formats::cdf
