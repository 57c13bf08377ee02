// Counts to EDF/BDF digital samples: the integer path gives exactly the floating-point expression's values for
// every count of the channel wherever it is taken, and is not taken where it would not.
#include "convert/EdfDigits.h"

#include <gtest/gtest.h>
#include <random>

namespace lv::convert {
namespace {

// A source channel and a written signal whose scale came from chooseEdfScale.
struct Case {
    double factor, offset;
    std::int32_t minimum, maximum;
    bool bdf;
};

EdfChannel signalFor(const core::ChannelInfo& src, const Case& c)
{
    EdfChannel ch;
    EdfExportOptions options;
    options.bdf = c.bdf;
    std::vector<std::string> warnings;
    EXPECT_TRUE(chooseEdfScale(ch, src, c.minimum, c.maximum, true, options, "x", warnings).ok());
    return ch;
}

std::int32_t decode(const char* p, bool bdf)
{
    const auto b = [&](int i) { return static_cast<std::uint8_t>(p[i]); };
    if (!bdf) return static_cast<std::int16_t>(b(0) | b(1) << 8);
    const std::int32_t v = b(0) | b(1) << 8 | b(2) << 16;
    return v & 0x800000 ? v - 0x1000000 : v;
}

TEST(EdfDigits, TheIntegerPathGivesTheExpressionsValuesForEveryCount)
{
    const std::vector<Case> cases = {
        {0.1, 0.0, -12000, 30000, false},   {0.1, 0.0, -5000, 5000, true},
        {0.001, 0.0, -32000, 32000, false}, {1.0, 0.0, -100, 100, false},
        {0.0625, 0.0, -40000, 40000, true}, {3.0517578125e-05, 0.0, -1, 1, false},
        {0.1, 12.34, -30000, 30000, false}, {0.2501, -7.3, -20000, 20000, true},
        {0.5, 0.25, -10, 10, false},        {0.17, 0.0, -8000000, 8000000, true},
        {0.1, 0.0, -200000, 200000, false},
    };
    std::mt19937 random(5);
    int integral = 0;
    for (const Case& c : cases) {
        core::ChannelInfo src;
        src.conversionFactor = c.factor, src.offset = c.offset;
        const EdfChannel ch = signalFor(src, c);
        const EdfDigits digits(src, ch, 2.5, c.minimum, c.maximum);
        integral += digits.integral();
        std::vector<std::int32_t> counts = {c.minimum, c.maximum, 0, core::kNoSample};
        std::uniform_int_distribution<std::int32_t> pick(c.minimum, c.maximum);
        for (int i = 0; i < 100000; ++i) counts.push_back(pick(random));
        std::vector<char> bytes(counts.size() * 3);
        digits.write(counts, c.bdf, bytes.data());
        for (std::size_t i = 0; i < counts.size(); ++i) {
            const std::int32_t want = digits(counts[i]);
            ASSERT_EQ(decode(bytes.data() + i * (c.bdf ? 3 : 2), c.bdf), want)
                << c.factor << " " << c.offset << " count " << counts[i] << " integral " << digits.integral();
            if (counts[i] == core::kNoSample) continue;
            const double x = (counts[i] * c.factor + c.offset - ch.offset) / ch.scale;
            ASSERT_EQ(want, static_cast<std::int32_t>(std::clamp(std::nearbyint(x), double(ch.signal.digitalMin),
                                                                 double(ch.signal.digitalMax))));
        }
    }
    EXPECT_GE(integral, 5); // at the source's resolution the integer path is taken
}

TEST(EdfDigits, NoIntegerPathWhereTheScaleIsCoarserThanTheSource)
{
    core::ChannelInfo src;
    src.conversionFactor = 0.001;
    const Case c{0.001, 0.0, -1'000'000, 1'000'000, false}; // 2 V range at 1 mV steps does not fit 16 bits
    const EdfChannel ch = signalFor(src, c);
    EXPECT_GT(ch.scale, 0.001 * 1.01);
    EXPECT_FALSE(EdfDigits(src, ch, 0.0, c.minimum, c.maximum).integral());
}

} // namespace
} // namespace lv::convert
