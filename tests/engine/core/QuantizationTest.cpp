// Conversion factors chosen from data: integer-count data found exactly, other data given a 1-2-5 step, and the
// rounding error reported as it is.
#include "core/Quantization.h"

#include "core/Recording.h"

#include <cmath>
#include <gtest/gtest.h>
#include <vector>

namespace lv::core {
namespace {

std::vector<std::int32_t> counts(std::size_t n)
{
    std::vector<std::int32_t> k(n);
    std::uint32_t x = 88172645u;
    for (auto& v : k) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5;
        v = static_cast<std::int32_t>(x % 4001) - 2000;
    }
    return k;
}

TEST(Quantization, IntegerCountDataKeepsItsOwnResolutionExactly)
{
    const auto k = counts(50'000);
    std::vector<double> v;
    for (std::int32_t c : k) v.push_back(c * 0.0625);
    v[100] = std::nan("");
    const QuantizationChoice choice = chooseQuantization(v, 0.0);
    EXPECT_EQ(choice.factor, 0.0625);
    EXPECT_TRUE(choice.inferred);
    EXPECT_TRUE(choice.exact);
    std::vector<std::int32_t> out(v.size());
    QuantizationError error;
    ASSERT_TRUE(quantize(v, choice.factor, out, error).ok());
    EXPECT_EQ(error.maxAbs, 0.0);
    EXPECT_EQ(error.values, 49'999);
    EXPECT_EQ(out[100], kNoSample);
    for (std::size_t i = 0; i < k.size(); ++i)
        if (i != 100) {
            ASSERT_EQ(out[i], k[i]) << i;
        }
}

TEST(Quantization, DecimalStepsAreFoundAsTheDecimal)
{
    std::vector<double> v;
    for (std::int32_t c : counts(10'000)) v.push_back(c / 10.0);
    const QuantizationChoice choice = chooseQuantization(v, 0.0);
    EXPECT_EQ(choice.factor, 0.1);
    EXPECT_TRUE(choice.exact);
}

TEST(Quantization, DataWithAnOffsetGetsANoiseBasedStepAndAnHonestError)
{
    std::vector<double> v;
    for (std::int32_t c : counts(20'000)) v.push_back(c * 0.5 + 0.25 * std::sin(c));
    const QuantizationChoice choice = chooseQuantization(v, 0.0);
    EXPECT_TRUE(choice.inferred);
    EXPECT_FALSE(choice.exact);
    // Neighbours differ by ~650 units typically (uniform counts): 650 * 1.48 / 32 -> the 1-2-5 step 20.
    EXPECT_EQ(choice.factor, 20.0);
    std::vector<std::int32_t> out(v.size());
    QuantizationError error;
    ASSERT_TRUE(quantize(v, choice.factor, out, error).ok());
    EXPECT_LE(error.maxAbs, choice.factor / 2);
    EXPECT_GT(error.rms(), 0.25 * choice.factor); // uniform rounding error: factor / sqrt(12) = 0.289 factor
    EXPECT_LT(error.rms(), 0.33 * choice.factor);
}

TEST(Quantization, RequestedFactorWinsAndOverflowIsAnError)
{
    const std::vector<double> v{1.0, 2.0, 1e12};
    const QuantizationChoice choice = chooseQuantization(v, 0.1);
    EXPECT_EQ(choice.factor, 0.1);
    EXPECT_FALSE(choice.inferred);
    std::vector<std::int32_t> out(v.size());
    QuantizationError error;
    const Status s = quantize(v, 0.1, out, error);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message,
              "value 1000000000000.000000 at index 2 does not fit in 32-bit counts at this resolution");
}

} // namespace
} // namespace lv::core
