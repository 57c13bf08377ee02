// Filter designs against scipy.signal's (butter, iirnotch: the response at 10 frequencies, complex, to 1e-9) and
// against the analytic Butterworth magnitude (within 0.1 dB), and out-of-range edges refused in words.
#include "filter/Butterworth.h"
#include "filter/FilterSpec.h"

#include "ScipyReference.h"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

using namespace lv;
using filter::Band;

namespace {

const std::vector<double> kFreqs = {0.1, 0.5, 1, 3, 10, 30, 50, 70, 100, 127};
constexpr double kFs = 256;

double db(double magnitude) { return 20 * std::log10(magnitude); }

// |H| of the digital Butterworth (the bilinear transform of the analog one, edges prewarped).
double analytic(Band band, int order, double fc, double f)
{
    const double ratio = std::tan(std::numbers::pi * f / kFs) / std::tan(std::numbers::pi * fc / kFs);
    const double x = band == Band::LowPass ? ratio : 1 / ratio;
    return 1 / std::sqrt(1 + std::pow(x, 2 * order));
}

void expectScipyResponse(const filter::Sos& sos, const nlohmann::json& filters)
{
    const nlohmann::json ref = test::scipyFilter(kFs, filters, kFreqs, {0, 1, 0});
    ASSERT_TRUE(ref.is_object()) << "scipy_filter.py failed";
    for (std::size_t i = 0; i < kFreqs.size(); ++i) {
        const std::complex<double> h = filter::response(sos, kFreqs[i], kFs);
        EXPECT_NEAR(h.real(), ref["re"][i].get<double>(), 1e-9) << filters << " at " << kFreqs[i] << " Hz";
        EXPECT_NEAR(h.imag(), ref["im"][i].get<double>(), 1e-9) << filters << " at " << kFreqs[i] << " Hz";
    }
}

} // namespace

TEST(Butterworth, LowAndHighPassEqualScipyAndTheAnalyticMagnitude)
{
    for (const auto& [band, fc] : {std::pair{Band::LowPass, 70.0}, std::pair{Band::HighPass, 0.5}})
        for (int order = 1; order <= filter::kMaxOrder; ++order) {
            const auto sos = filter::butterworth(band, order, kFs, fc);
            ASSERT_TRUE(sos.ok()) << sos.error().describe();
            EXPECT_EQ(sos->size(), static_cast<std::size_t>((order + 1) / 2));
            expectScipyResponse(
                *sos, {{{"band", band == Band::LowPass ? "lowpass" : "highpass"}, {"order", order}, {"hz", fc}}});
            for (const double f : kFreqs)
                EXPECT_NEAR(db(std::abs(filter::response(*sos, f, kFs))), db(analytic(band, order, fc, f)), 0.1)
                    << "order " << order << " at " << f << " Hz";
        }
}

TEST(Butterworth, BandPassBandStopAndNotchEqualScipy)
{
    for (int order : {1, 2, 3, 4, 8}) {
        const auto pass = filter::butterworth(Band::BandPass, order, kFs, 1, 40);
        ASSERT_TRUE(pass.ok());
        expectScipyResponse(*pass, {{{"band", "bandpass"}, {"order", order}, {"hz", {1, 40}}}});
        const auto stop = filter::butterworth(Band::BandStop, order, kFs, 45, 55);
        ASSERT_TRUE(stop.ok());
        expectScipyResponse(*stop, {{{"band", "bandstop"}, {"order", order}, {"hz", {45, 55}}}});
    }
    const auto n = filter::notch(kFs, 50, 30);
    ASSERT_TRUE(n.ok());
    expectScipyResponse({*n}, {{{"band", "notch"}, {"hz", 50}, {"q", 30}}});
    EXPECT_LT(std::abs(filter::response({*n}, 50, kFs)), 1e-12);
}

TEST(Butterworth, EdgesOutOfRangeAreRefusedInWords)
{
    EXPECT_EQ(filter::butterworth(Band::LowPass, 2, kFs, 200).error().describe(),
              "a filter edge at 200 Hz must lie between 0 and half the sample rate (128 Hz)");
    EXPECT_EQ(filter::butterworth(Band::HighPass, 9, kFs, 1).error().describe(),
              "a Butterworth filter of order 9 is not made: orders are 1 to 8");
    EXPECT_EQ(filter::butterworth(Band::BandPass, 2, kFs, 40, 1).error().describe(),
              "a band's upper edge at 1 Hz must lie above its lower edge (40 Hz) and below half the sample rate "
              "(128 Hz)");
    EXPECT_EQ(filter::notch(100, 50, 30).error().describe(),
              "a notch at 50 Hz must lie between 0 and half the sample rate (50 Hz)");
}
