// Filtering against scipy.signal (sosfiltfilt; sosfilt from sosfilt_zi x x[0]) sample for sample; a spike keeps its
// peak sample; a filter never crosses a gap; a page filtered with settleSamples() of margin equals the whole run.
#include "filter/Filtering.h"
#include "filter/CascadeLanes.h"
#include "filter/FilterSpec.h"

#include "ScipyReference.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <numbers>
#include <random>

using namespace lv;

namespace {

constexpr double kFs = 256;

// 20 s of EEG-like signal: 10 Hz alpha, 50 Hz mains, a slow drift, noise and a spike at sample 2000.
std::vector<double> eegLike(std::size_t n = 5120)
{
    std::mt19937 random(3);
    std::normal_distribution<double> noise(0, 5);
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double t = static_cast<double>(i) / kFs;
        x[i] = 40 * std::sin(2 * std::numbers::pi * 10 * t) + 20 * std::sin(2 * std::numbers::pi * 50 * t) +
               300 * t / 20 + noise(random);
    }
    x[2000] += 400;
    return x;
}

filter::Sos design(const std::string& text)
{
    auto spec = filter::parseFilterSpec(text);
    EXPECT_TRUE(spec.ok());
    auto sos = filter::designFilter(*spec, kFs);
    EXPECT_TRUE(sos.ok()) << sos.error().describe();
    return sos.ok() ? *sos : filter::Sos{};
}

double largest(const std::vector<double>& x)
{
    double m = 0;
    for (const double v : x) m = std::max(m, std::abs(v));
    return m;
}

} // namespace

TEST(Filtering, ZeroPhaseAndCausalEqualScipySampleForSample)
{
    const std::vector<double> x = eegLike();
    const filter::Sos sos = design("hp=0.5,lp=70,notch=50,order=4");
    const nlohmann::json ref = test::scipyFilter(kFs,
                                                 {{{"band", "highpass"}, {"order", 4}, {"hz", 0.5}},
                                                  {{"band", "lowpass"}, {"order", 4}, {"hz", 70}},
                                                  {{"band", "notch"}, {"hz", 50}, {"q", 30}}},
                                                 {1}, x);
    ASSERT_TRUE(ref.is_object()) << "scipy_filter.py failed";
    ASSERT_EQ(ref["sections"].get<std::size_t>(), sos.size());
    std::vector<double> zero = x, causal = x;
    filter::filterZeroPhase(sos, zero);
    filter::filterCausal(sos, causal);
    const double tolerance = 1e-9 * largest(x);
    for (std::size_t i = 0; i < x.size(); ++i) {
        ASSERT_NEAR(zero[i], ref["zero"][i].get<double>(), tolerance) << "zero-phase, sample " << i;
        ASSERT_NEAR(causal[i], ref["causal"][i].get<double>(), tolerance) << "causal, sample " << i;
    }
}

TEST(Filtering, ZeroPhaseKeepsASpikesPeakSampleWhereCausalMovesIt)
{
    std::vector<double> x(2048, 0.0);
    x[1000] = 100;
    std::vector<double> zero = x, causal = x;
    const filter::Sos sos = design("lp=35,order=4");
    filter::filterZeroPhase(sos, zero);
    filter::filterCausal(sos, causal);
    EXPECT_EQ(std::max_element(zero.begin(), zero.end()) - zero.begin(), 1000);
    EXPECT_GT(std::max_element(causal.begin(), causal.end()) - causal.begin(), 1000);
}

TEST(Filtering, AFilterNeverCrossesAGap)
{
    // A step from 0 to 100 at a gap: each side alone is constant, so a high-pass leaves both at rest; run across
    // the step (the gap filled) it rings on both sides.
    std::vector<double> x(3000, 0.0);
    std::fill(x.begin() + 1500, x.end(), 100.0);
    std::vector<double> across = x;
    std::fill(x.begin() + 1400, x.begin() + 1500, std::nan(""));
    const filter::Sos sos = design("hp=1,lp=30,order=4");
    filter::filterRuns(sos, x, filter::Phase::Zero);
    filter::filterRuns(sos, across, filter::Phase::Zero);
    for (std::size_t i = 1400; i < 1500; ++i) ASSERT_TRUE(std::isnan(x[i])) << i;
    double before = 0, after = 0, ringing = 0;
    for (std::size_t i = 0; i < 1400; ++i) before = std::max(before, std::abs(x[i]));
    for (std::size_t i = 1500; i < 3000; ++i) after = std::max(after, std::abs(x[i]));
    for (std::size_t i = 1300; i < 1400; ++i) ringing = std::max(ringing, std::abs(across[i]));
    EXPECT_LT(before, 1e-9);
    EXPECT_LT(after, 1e-6);
    EXPECT_GT(ringing, 1.0); // what crossing the step would have drawn on the gap's near side
}

TEST(Filtering, APageWithSettlingMarginsEqualsTheWholeRun)
{
    const std::vector<double> x = eegLike(256 * 120);
    for (const std::string text : {"hp=0.5,lp=70,notch=50", "hp=0.1,order=2", "bp=1-40,order=4"}) {
        const filter::Sos sos = design(text);
        const long long margin = filter::settleSamples(sos);
        ASSERT_GT(margin, 0);
        ASSERT_LT(margin, 256 * 30) << text; // at most 30 s each side of a page
        std::vector<double> whole = x;
        filter::filterZeroPhase(sos, whole);
        const std::size_t page = 256 * 50, length = 256 * 10, from = page - static_cast<std::size_t>(margin);
        std::vector<double> part(x.begin() + static_cast<std::ptrdiff_t>(from),
                                 x.begin() + static_cast<std::ptrdiff_t>(page + length + margin));
        filter::filterZeroPhase(sos, part);
        double worst = 0;
        for (std::size_t i = 0; i < length; ++i)
            worst = std::max(worst, std::abs(part[page - from + i] - whole[page + i]));
        EXPECT_LT(worst, 1e-3 * largest(x)) << text << ": margin " << margin << " samples";
    }
}

// Signals filtered side by side (runs of equal length in SIMD lanes) end bit for bit as each filtered alone, in
// both phases: runs of the same length in different signals, of lengths met once, of 1 and 2 samples, and an odd
// number of runs of one length (one left for the scalar pass).
TEST(Filtering, SignalsFilteredTogetherEqualEachFilteredAloneBitForBit)
{
#if defined(__x86_64__) || defined(_M_X64) || defined(__aarch64__)
    EXPECT_EQ(filter::cascadeLanes(), 8u); // the lanes, not only the scalar fallback, are what this test covers
#endif
    const filter::Sos sos = design("hp=0.5,lp=70,notch=50");
    const std::vector<double> base = eegLike();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const filter::Phase phase : {filter::Phase::Zero, filter::Phase::Causal}) {
        std::vector<std::vector<double>> signals;
        for (std::size_t s = 0; s < 7; ++s) {
            std::vector<double> x(base.begin() + static_cast<std::ptrdiff_t>(s * 37), base.end());
            x.resize(4000);
            if (s % 3 == 1) std::fill(x.begin() + 1000, x.begin() + 1200, nan); // runs of 1000 and 2800
            if (s == 4) x[3998] = nan;                                          // runs of 1 and ...
            if (s == 5) x[2] = nan;                                             // ... of 2 samples
            signals.push_back(std::move(x));
        }
        std::vector<std::vector<double>> alone = signals;
        for (std::vector<double>& x : alone) filter::filterRuns(sos, x, phase);
        std::vector<std::span<double>> spans(signals.begin(), signals.end());
        filter::filterRunsTogether(sos, spans, phase);
        for (std::size_t s = 0; s < signals.size(); ++s)
            for (std::size_t i = 0; i < signals[s].size(); ++i) {
                const double a = alone[s][i], b = signals[s][i];
                ASSERT_TRUE(std::memcmp(&a, &b, sizeof a) == 0)
                    << "signal " << s << " sample " << i << ": " << a << " alone, " << b << " together";
            }
    }
}
