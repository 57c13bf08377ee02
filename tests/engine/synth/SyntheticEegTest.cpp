// The synthetic EEG is deterministic and chunk-independent, with alpha, 1/f, mains, spikes and plausible amplitudes.
#include "synth/SyntheticEeg.h"

#include "core/Recording.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace lv::synth {
namespace {

std::vector<std::int32_t> generateCounts(std::uint64_t seed, std::size_t channel, double fs, std::size_t n)
{
    std::vector<std::int32_t> out(n);
    SyntheticEeg(seed, channel, fs).generate(out);
    return out;
}

std::vector<double> generateMicrovolts(std::uint64_t seed, std::size_t channel, double fs, std::size_t n)
{
    const auto counts = generateCounts(seed, channel, fs, n);
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = counts[i] * kMicrovoltsPerCount;
    return out;
}

// |DFT|^2 of x at `hz` (Goertzel).
double goertzel(const double* x, std::size_t n, double hz, double fs)
{
    const double coeff = 2.0 * std::cos(2.0 * std::numbers::pi * hz / fs);
    double s1 = 0, s2 = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double s = x[i] + coeff * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

// Welch estimate at integer frequencies: 1-second Hann-windowed segments (fs = 256), averaged.
double meanBandPower(const std::vector<double>& x, int firstHz, int lastHz)
{
    constexpr std::size_t kSegment = 256;
    std::vector<double> windowed(kSegment);
    double total = 0;
    std::size_t segments = 0;
    for (std::size_t start = 0; start + kSegment <= x.size(); start += kSegment, ++segments) {
        for (std::size_t i = 0; i < kSegment; ++i)
            windowed[i] = x[start + i] * (0.5 - 0.5 * std::cos(2.0 * std::numbers::pi * i / kSegment));
        for (int hz = firstHz; hz <= lastHz; ++hz) total += goertzel(windowed.data(), kSegment, hz, 256.0);
    }
    return total / static_cast<double>(segments * (lastHz - firstHz + 1));
}

double standardDeviation(const std::vector<double>& x)
{
    double sum = 0, squares = 0;
    for (double v : x) sum += v, squares += v * v;
    const double mean = sum / x.size();
    return std::sqrt(squares / x.size() - mean * mean);
}

TEST(SyntheticEeg, SameParametersGiveTheSameStreamWhateverTheChunks)
{
    constexpr std::size_t kSamples = 100000;
    const auto whole = generateCounts(1, 3, 256.0, kSamples);
    EXPECT_EQ(whole, generateCounts(1, 3, 256.0, kSamples));
    for (std::size_t chunk : {1, 7, 4096, 99999}) {
        SyntheticEeg eeg(1, 3, 256.0);
        std::vector<std::int32_t> pieces(kSamples);
        for (std::size_t start = 0; start < kSamples; start += chunk)
            eeg.generate(std::span(pieces).subspan(start, std::min(chunk, kSamples - start)));
        EXPECT_EQ(whole, pieces) << "chunk " << chunk;
    }
    SyntheticEeg mixed(1, 3, 256.0); // uneven chunks, including empty ones
    std::vector<std::int32_t> pieces(kSamples);
    for (std::size_t start = 0, i = 0; start < kSamples; ++i) {
        const std::size_t n = std::min<std::size_t>((i * 37) % 1001, kSamples - start);
        mixed.generate(std::span(pieces).subspan(start, n));
        start += n;
    }
    EXPECT_EQ(whole, pieces);
}

TEST(SyntheticEeg, SeedAndChannelChangeTheStream)
{
    constexpr std::size_t kSamples = 10000;
    const auto base = generateCounts(1, 0, 256.0, kSamples);
    for (const auto& other : {generateCounts(2, 0, 256.0, kSamples), generateCounts(1, 1, 256.0, kSamples)}) {
        std::size_t equal = 0;
        for (std::size_t i = 0; i < kSamples; ++i) equal += base[i] == other[i];
        EXPECT_LT(equal, kSamples / 20);
    }
}

TEST(SyntheticEeg, SpectrumHasAlphaMainsAndOneOverF)
{
    constexpr std::size_t kSamples = 600 * 256; // ten minutes
    for (std::size_t channel = 0; channel < 3; ++channel) {
        const auto x = generateMicrovolts(1, channel, 256.0, kSamples);
        EXPECT_GT(meanBandPower(x, 8, 12), 4.0 * meanBandPower(x, 14, 18)) << "channel " << channel;
        EXPECT_GT(meanBandPower(x, 1, 4), 4.0 * meanBandPower(x, 20, 30)) << "channel " << channel;
        // Ten minutes hold whole cycles of 45, 50 and 55 Hz: exact DFT bins, no window needed.
        const double mains = goertzel(x.data(), kSamples, 50.0, 256.0);
        EXPECT_GT(mains, 20.0 * goertzel(x.data(), kSamples, 45.0, 256.0)) << "channel " << channel;
        EXPECT_GT(mains, 20.0 * goertzel(x.data(), kSamples, 55.0, 256.0)) << "channel " << channel;
    }
}

TEST(SyntheticEeg, AmplitudeIsPlausibleAndDiffersBetweenChannels)
{
    std::vector<double> deviations;
    for (std::size_t channel = 0; channel < 8; ++channel) {
        deviations.push_back(standardDeviation(generateMicrovolts(1, channel, 256.0, 120 * 256)));
        EXPECT_GT(deviations.back(), 5.0) << "channel " << channel;
        EXPECT_LT(deviations.back(), 100.0) << "channel " << channel;
    }
    const auto [lo, hi] = std::minmax_element(deviations.begin(), deviations.end());
    EXPECT_GT(*hi, 1.3 * *lo);
}

// Sharp excursions beyond 6 robust sigmas (from the median absolute deviation), counted as separate events
// when more than 0.2 s apart: a Gaussian-like background alone gives none in ten minutes.
TEST(SyntheticEeg, SpikesStandOutOfTheBackground)
{
    constexpr double kFs = 256.0;
    for (std::size_t channel = 0; channel < 3; ++channel) {
        const auto x = generateMicrovolts(7, channel, kFs, 600 * 256);
        std::vector<double> sorted = x;
        std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
        const double median = sorted[sorted.size() / 2];
        for (std::size_t i = 0; i < x.size(); ++i) sorted[i] = std::abs(x[i] - median);
        std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
        const double sigma = 1.4826 * sorted[sorted.size() / 2];
        int events = 0;
        std::int64_t last = -1000000;
        for (std::size_t i = 0; i < x.size(); ++i) {
            if (std::abs(x[i] - median) <= 6.0 * sigma) continue;
            if (static_cast<std::int64_t>(i) - last > static_cast<std::int64_t>(0.2 * kFs)) ++events;
            last = static_cast<std::int64_t>(i);
        }
        EXPECT_GE(events, 5) << "channel " << channel;
        EXPECT_LE(events, 100) << "channel " << channel;
    }
}

TEST(SyntheticEeg, NeverMissingAtFractionalAndHighRates)
{
    for (double fs : {100.5, 256.0, 5000.0}) {
        for (std::uint64_t seed : {0ull, 1ull, 0xFFFFFFFFFFFFFFFFull}) {
            const auto counts = generateCounts(seed, 5, fs, static_cast<std::size_t>(60 * fs));
            EXPECT_EQ(std::count(counts.begin(), counts.end(), core::kNoSample), 0) << fs;
            std::vector<double> uv(counts.begin(), counts.end());
            for (double& v : uv) v *= kMicrovoltsPerCount;
            const double sd = standardDeviation(uv);
            EXPECT_GT(sd, 5.0) << "fs " << fs << " seed " << seed;
            EXPECT_LT(sd, 100.0) << "fs " << fs << " seed " << seed;
        }
    }
    EXPECT_THROW(SyntheticEeg(1, 0, 0.0), std::invalid_argument);
    EXPECT_THROW(SyntheticEeg(1, 0, std::nan("")), std::invalid_argument);
}

} // namespace
} // namespace lv::synth
