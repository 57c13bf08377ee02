// Deterministic, fast synthetic EEG: pink background, alpha bursts, spikes and line noise as int32 counts.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace lv::synth {

inline constexpr double kMicrovoltsPerCount = 0.1; // resolution of the generated counts

// One channel's EEG-like signal: 1/f ("pink") background, alpha bursts (8-12 Hz, waxing and waning over
// seconds), occasional spikes (sharp transients of ~20-70 ms, a few per minute), mains line noise (50 Hz)
// of small amplitude, and a per-channel amplitude (gain between ~0.5x and 2x, derived from seed and channel).
// Output: int32 counts at kMicrovoltsPerCount; typical amplitude tens of microvolts (std of roughly 10-60 uV).
// The stream is fully determined by (seed, channel, fs): the same samples whatever the chunk sizes passed
// to generate().
class SyntheticEeg {
public:
    // `fs` in Hz must be positive and finite (std::invalid_argument otherwise).
    SyntheticEeg(std::uint64_t seed, std::size_t channel, double fs);
    void generate(std::span<std::int32_t> out); // the next out.size() samples of the stream

private:
    // xoshiro256** (Blackman and Vigna): 64 random bits per call.
    struct Random {
        std::array<std::uint64_t, 4> s{};
        std::uint64_t next();
    };
    // A unit phasor advanced by a fixed rotation each sample (no sin/cos per sample).
    struct Phasor {
        double re = 1.0;
        double im = 0.0;
        double stepRe = 1.0;
        double stepIm = 0.0;
    };
    // The spike in progress: a sharp biweight bump followed by a slower wave of the same sign.
    struct Spike {
        double position = 0.0; // samples since the spike began
        double length = 0.0;   // total samples; no spike in progress when position >= length
        double halfWidth = 1.0;
        double waveHalfWidth = 1.0;
        double amplitude = 0.0; // microvolts, signed
    };

    // generate() works in tiles, one pass per component; each pass has its own random stream and state, so
    // tile and chunk boundaries do not change the stream.
    void fillPink(std::span<double> tile);
    void addRhythms(std::span<double> tile, std::span<std::uint32_t> triggers);
    void addSpikes(std::span<double> tile, std::span<const std::uint32_t> triggers);
    Spike makeSpike(std::uint64_t bits) const;

    Random m_noise;                 // the pink background
    Random m_events;                // alpha amplitude drive and spike triggers
    Random m_shapes;                // spike durations, sizes and signs
    std::array<double, 3> m_pink{}; // Paul Kellet's pink filter poles
    double m_alphaRe = 0.0;         // complex Ornstein-Uhlenbeck amplitude of the alpha rhythm
    double m_alphaIm = 0.0;
    Phasor m_alphaCarrier;
    Phasor m_line;
    Spike m_spike;
    std::uint64_t m_index = 0; // samples generated so far: when to renormalize the phasors

    double m_fs = 0.0;
    double m_gain = 1.0;
    double m_alphaDecay = 0.0;
    double m_alphaDrive = 0.0;
    double m_lineAmplitude = 0.0;       // microvolts; 0 when 50 Hz is not below the Nyquist frequency
    std::uint64_t m_spikeThreshold = 0; // a spike starts when 32 random bits fall below it
};

} // namespace lv::synth
