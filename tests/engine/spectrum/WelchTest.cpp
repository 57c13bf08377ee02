// Welch spectra against scipy.signal.welch (each run of present samples on its own, averaged over all segments),
// a sine's power within 1 % with and without a gap, and the refusals.
#include "spectrum/Welch.h"

#include "support/TestSupport.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>

using namespace lv;

namespace {

constexpr double kFs = 256;

// A = 30 sine at 10 Hz plus white noise of sd 1, n samples.
std::vector<double> sine(std::size_t n, double hz = 10, double amplitude = 30)
{
    std::mt19937 random(7);
    std::normal_distribution<double> noise(0, 1);
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i)
        x[i] = amplitude * std::sin(2 * std::numbers::pi * hz * static_cast<double>(i) / kFs) + noise(random);
    return x;
}

nlohmann::json scipyWelch(const std::vector<std::vector<double>>& runs, std::size_t n, std::size_t overlap,
                          const std::string& window)
{
    test::TempDir dir;
    const std::string in = (dir.path() / "in.json").string();
    std::ofstream(in) << nlohmann::json{
        {"fs", kFs}, {"nperseg", n}, {"noverlap", overlap}, {"window", window}, {"runs", runs}};
    std::string out;
    if (test::run("/usr/bin/python3 " + std::string(LONGVIEW_WELCH_REFERENCE) + " " + in, &out) != 0) return nullptr;
    return nlohmann::json::parse(out, nullptr, false);
}

void expectEqual(const spectrum::Psd& psd, const nlohmann::json& ref)
{
    ASSERT_TRUE(ref.is_object()) << "scipy_welch.py failed";
    EXPECT_EQ(psd.segments, ref["segments"].get<std::size_t>());
    ASSERT_EQ(psd.power.size(), ref["p"].size());
    double largest = 0;
    for (const double p : psd.power) largest = std::max(largest, p);
    for (std::size_t k = 0; k < psd.power.size(); ++k) {
        ASSERT_DOUBLE_EQ(psd.frequencies[k], ref["f"][k].get<double>()) << k;
        ASSERT_NEAR(psd.power[k], ref["p"][k].get<double>(), 1e-10 * largest) << "bin " << k;
    }
}

} // namespace

TEST(Welch, EqualsScipyForEachWindowAndOverlap)
{
    const std::vector<double> x = sine(5000);
    for (const auto& [window, name] : {std::pair{spectrum::Window::Hann, "hann"},
                                       {spectrum::Window::Hamming, "hamming"},
                                       {spectrum::Window::Blackman, "blackman"},
                                       {spectrum::Window::Rectangular, "boxcar"}}) {
        for (const double overlap : {0.0, 0.5, 0.75}) {
            const std::size_t n = 256, shared = static_cast<std::size_t>(n * overlap);
            auto psd = spectrum::welch(x, kFs, {n, overlap, window});
            ASSERT_TRUE(psd.ok());
            SCOPED_TRACE(std::string(name) + ", overlap " + std::to_string(overlap));
            expectEqual(*psd, scipyWelch({x}, n, shared, name));
        }
    }
    auto odd = spectrum::welch(x, kFs, {255, 0.5, spectrum::Window::Hann}); // an odd length has no Nyquist bin
    ASSERT_TRUE(odd.ok());
    expectEqual(*odd, scipyWelch({x}, 255, 127, "hann"));
}

TEST(Welch, MissingSamplesAreLeftOutNotZeroFilled)
{
    std::vector<double> x = sine(8000);
    std::fill(x.begin() + 3000, x.begin() + 3700, std::nan(""));
    auto psd = spectrum::welch(x, kFs, {512, 0.5, spectrum::Window::Hann});
    ASSERT_TRUE(psd.ok());
    expectEqual(*psd, scipyWelch({{x.begin(), x.begin() + 3000}, {x.begin() + 3700, x.end()}}, 512, 256, "hann"));
    EXPECT_DOUBLE_EQ(psd->seconds, 7300 / kFs);
}

TEST(Welch, ASinesPowerIsItsAmplitudeSquaredOverTwoWithOrWithoutAGap)
{
    for (const bool gap : {false, true}) {
        std::vector<double> x = sine(256 * 120, 10, 30);
        if (gap) std::fill(x.begin() + 256 * 50, x.begin() + 256 * 70, std::nan(""));
        auto psd = spectrum::welch(x, kFs, {512, 0.5, spectrum::Window::Hann});
        ASSERT_TRUE(psd.ok());
        // Hann leaks a bin to each side: the band of +-1.5 Hz holds the sine's power (450) and ~3 Hz of noise (~3).
        EXPECT_NEAR(spectrum::bandPower(*psd, 8.5, 11.5), 450.0 + 3 * 2.0 / kFs, 4.5) << (gap ? "with a gap" : "");
        EXPECT_EQ(psd->segments, gap ? 2 * ((256 * 50 - 256) / 256) : (256 * 120 - 256) / 256);
    }
}

TEST(Welch, RefusesWhatIsNoSpectrum)
{
    const std::vector<double> x(100, 1.0);
    auto shortSegment = spectrum::welch(x, kFs, {1, 0.5, spectrum::Window::Hann});
    ASSERT_FALSE(shortSegment.ok());
    EXPECT_EQ(shortSegment.error().message, "a spectrum's segment needs at least 2 samples");
    auto overlap = spectrum::welch(x, kFs, {64, 1.0, spectrum::Window::Hann});
    ASSERT_FALSE(overlap.ok());
    EXPECT_EQ(overlap.error().message, "a spectrum's overlap lies in [0, 1)");
    auto tooShort = spectrum::welch(x, kFs, {256, 0.5, spectrum::Window::Hann});
    ASSERT_TRUE(tooShort.ok());
    EXPECT_EQ(tooShort->segments, 0u);
    EXPECT_TRUE(tooShort->power.empty());
    EXPECT_EQ(spectrum::windowFromName("kaiser").error().message,
              "window \"kaiser\": expected hann, hamming, blackman or rectangular");
}

TEST(Welch, FedInPiecesItEqualsTheWholeBitForBit)
{
    std::vector<double> x = sine(9000);
    std::fill(x.begin() + 4000, x.begin() + 4100, std::nan(""));
    const spectrum::WelchOptions options{512, 0.5, spectrum::Window::Hann};
    auto whole = spectrum::welch(x, kFs, options);
    ASSERT_TRUE(whole.ok());
    auto pieces = spectrum::WelchAccumulator::create(kFs, options);
    ASSERT_TRUE(pieces.ok());
    for (std::size_t from = 0, size = 1; from < x.size(); from += size, size = size * 3 % 1009 + 1)
        pieces->add(std::span<const double>(x).subspan(from, std::min(size, x.size() - from)));
    const spectrum::Psd joined = pieces->result();
    EXPECT_EQ(joined.segments, whole->segments);
    EXPECT_EQ(joined.power, whole->power);
}
