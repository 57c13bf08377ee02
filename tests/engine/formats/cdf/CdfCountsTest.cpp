// Stored values to counts: every type in both byte orders against the plain expression std::round(value / step),
// fill, pad, NaN and records not held as missing, values beyond int32 counts refused.
#include "formats/cdf/CdfCounts.h"

#include "core/Recording.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace lv::formats::cdf {
namespace {

template <typename T>
std::vector<std::uint8_t> store(const std::vector<T>& values, ByteOrder order)
{
    std::vector<std::uint8_t> out(values.size() * sizeof(T));
    std::memcpy(out.data(), values.data(), out.size());
    if (order == ByteOrder::Big)
        for (std::size_t i = 0; i < values.size(); ++i)
            std::reverse(out.begin() + static_cast<std::ptrdiff_t>(i * sizeof(T)),
                         out.begin() + static_cast<std::ptrdiff_t>((i + 1) * sizeof(T)));
    return out;
}

template <typename T>
void expectLikeRound(std::int32_t type, double step, const std::vector<T>& values)
{
    for (ByteOrder order : {ByteOrder::Little, ByteOrder::Big}) {
        const auto bytes = store(values, order);
        const std::vector<std::uint8_t> held(values.size(), 1);
        std::vector<std::int32_t> out(values.size(), core::kNoSample);
        const CountCoding coding{type, order, step, std::nullopt, std::nullopt};
        EXPECT_TRUE(valuesToCounts(coding, bytes.data(), sizeof(T), held.data(), values.size(), out.data()));
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double want = std::round(static_cast<double>(values[i]) / step);
            ASSERT_EQ(out[i], static_cast<std::int32_t>(want)) << typeName(type) << " " << values[i] << " / " << step;
        }
    }
}

TEST(CdfCounts, EveryTypeAndByteOrderRoundsAsStdRound)
{
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> real(-1e5, 1e5);
    std::vector<float> floats;
    std::vector<double> doubles = {2.5, -2.5, 0.5, -0.5, 1.5, 0.49999999999999994, -0.49999999999999994};
    for (int i = 0; i < 5000; ++i) {
        floats.push_back(static_cast<float>(real(rng)));
        doubles.push_back(real(rng));
        doubles.push_back(std::round(real(rng)) + 0.5); // ties
    }
    for (double step : {1.0, 0x1p-10, 0.1, 3.0}) {
        expectLikeRound(kReal4, step, floats);
        expectLikeRound(kDouble, step, doubles);
    }
    expectLikeRound(kInt2, 1.0, std::vector<std::int16_t>{-32768, -1, 0, 1, 32767});
    expectLikeRound(kUint2, 1.0, std::vector<std::uint16_t>{0, 1, 65535});
    expectLikeRound(kInt1, 1.0, std::vector<std::int8_t>{-128, 0, 127});
    expectLikeRound(kUint1, 1.0, std::vector<std::uint8_t>{0, 255});
    expectLikeRound(kInt4, 1.0, std::vector<std::int32_t>{-2147483647, 0, 2147483647});
    expectLikeRound(kUint4, 2.0, std::vector<std::uint32_t>{0, 7, 4294967292u});
    expectLikeRound(kInt8, 1024.0, std::vector<std::int64_t>{-1000000000000, 3, 1000000000000});
}

TEST(CdfCounts, FillPadNaNAndRecordsNotHeldAreMissingBeyondInt32IsRefused)
{
    const std::vector<float> values = {1.0f, -1e31f, -1e30f, std::nanf(""), 5.0f, 3e9f, 7.0f};
    const auto bytes = store(values, ByteOrder::Little);
    const std::vector<std::uint8_t> held = {1, 1, 1, 1, 0, 1, 1};
    std::vector<std::int32_t> out(values.size(), core::kNoSample);
    const CountCoding coding{kReal4, ByteOrder::Little, 1.0, static_cast<double>(-1e31f), static_cast<double>(-1e30f)};
    EXPECT_FALSE(valuesToCounts(coding, bytes.data(), 4, held.data(), values.size(), out.data()));
    const std::int32_t x = core::kNoSample;
    EXPECT_EQ(out, (std::vector<std::int32_t>{1, x, x, x, x, x, 7}));
}

} // namespace
} // namespace lv::formats::cdf
