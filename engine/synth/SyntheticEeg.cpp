// Synthetic EEG: xoshiro256** noise through a pink filter, a complex Ornstein-Uhlenbeck alpha, spikes, mains.
#include "synth/SyntheticEeg.h"

#include "core/Recording.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace lv::synth {

namespace {

// Amplitudes in microvolts at gain 1 (the channel gain multiplies all of them).
constexpr double kPinkMicrovolts = 18.0;  // std of the 1/f background
constexpr double kAlphaMicrovolts = 12.0; // rms of the alpha rhythm
constexpr double kAlphaSeconds = 1.0;     // correlation time of the alpha amplitude (waxing and waning)
constexpr double kLineMicrovolts = 1.5;   // typical mains amplitude
constexpr double kLineHz = 50.0;
constexpr double kSpikesPerSecond = 4.0 / 60.0;
constexpr double kSpikeMinSeconds = 0.020; // support of the sharp phase
constexpr double kSpikeMaxSeconds = 0.070;
constexpr double kSpikeMinMicrovolts = 120.0;
constexpr double kSpikeMaxMicrovolts = 300.0;
constexpr double kWaveWidthRatio = 2.0; // after-going slow wave: half-width relative to the sharp phase
constexpr double kWaveRatio = 0.35;     // and amplitude relative to it

// Paul Kellet's economy pink filter (within 0.5 dB of 1/f above 2e-4 fs): poles, their white-noise weights,
// the direct weight, and the output std for unit white input (root of the summed squared impulse response).
constexpr std::array<double, 3> kPinkPoles = {0.99765, 0.96300, 0.57000};
constexpr std::array<double, 3> kPinkWeights = {0.0990460, 0.2965164, 1.0526913};
constexpr double kPinkDirect = 0.1848;
constexpr double kPinkStd = 2.9790144;
constexpr double kPinkScale = kPinkMicrovolts / kPinkStd;

// Sum of four 16-bit uniforms (Irwin-Hall): mean and the scale to unit variance.
constexpr double kIrwinHallMean = 2.0 * 65535.0;
constexpr double kIrwinHallScale = 1.7320508075688772 / 65536.0; // sqrt(3) / 65536

constexpr double kMinCount = static_cast<double>(core::kNoSample) + 1.0;
constexpr double kMaxCount = 2147483647.0;

std::uint64_t splitMix64(std::uint64_t& state)
{
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// Integer to double through int64 (a single instruction; unsigned 64-bit conversion needs a branch).
double toDouble(std::uint64_t bits) { return static_cast<double>(static_cast<std::int64_t>(bits)); }

double unitInterval(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; } // [0, 1)

double unit16(std::uint64_t bits) { return toDouble(bits & 0xFFFF) / 65536.0; } // [0, 1)

// Approximately standard normal from the four 16-bit lanes of `bits`.
double gaussian(std::uint64_t bits)
{
    const std::uint64_t sum = (bits & 0xFFFF) + ((bits >> 16) & 0xFFFF) + ((bits >> 32) & 0xFFFF) + (bits >> 48);
    return (toDouble(sum) - kIrwinHallMean) * kIrwinHallScale;
}

double biweight(double x)
{
    const double t = 1.0 - x * x;
    return t > 0.0 ? t * t : 0.0;
}

template <typename Phasor>
Phasor makePhasor(double hz, double fs, double phase)
{
    const double step = 2.0 * std::numbers::pi * hz / fs;
    return Phasor{std::cos(phase), std::sin(phase), std::cos(step), std::sin(step)};
}

// Rotation by one step; rounding lets the magnitude drift by ~1e-16 per step, see normalize().
template <typename Phasor>
void advance(Phasor& p)
{
    const double re = p.re * p.stepRe - p.im * p.stepIm;
    p.im = p.re * p.stepIm + p.im * p.stepRe;
    p.re = re;
}

// One Newton step back to unit magnitude (exact enough for a magnitude already within 1e-9 of 1).
template <typename Phasor>
void normalize(Phasor& p)
{
    const double fix = 1.5 - 0.5 * (p.re * p.re + p.im * p.im);
    p.re *= fix;
    p.im *= fix;
}

std::int32_t toCounts(double counts)
{
    const double c = std::min(std::max(counts, kMinCount), kMaxCount); // never kNoSample
    return static_cast<std::int32_t>(c + std::copysign(0.5, c));       // round half away from zero, no branch
}

} // namespace

SyntheticEeg::SyntheticEeg(std::uint64_t seed, std::size_t channel, double fs) : m_fs(fs)
{
    if (!(fs > 0.0) || !std::isfinite(fs)) throw std::invalid_argument("sampling frequency must be positive");
    std::uint64_t subject = seed; // what all channels of one seed share: alpha frequency, mains phase
    const double alphaHz = 9.0 + 2.0 * unitInterval(splitMix64(subject));
    const double linePhase = 2.0 * std::numbers::pi * unitInterval(splitMix64(subject));
    std::uint64_t mix = splitMix64(subject) ^ static_cast<std::uint64_t>(channel);
    for (Random* random : {&m_noise, &m_events, &m_shapes})
        for (std::uint64_t& word : random->s) word = splitMix64(mix);

    m_gain = std::exp2(2.0 * unitInterval(m_shapes.next()) - 1.0);
    const std::uint64_t params = m_shapes.next();
    const double channelAlphaHz = alphaHz - 0.25 + 0.5 * unit16(params);
    m_alphaCarrier = makePhasor<Phasor>(channelAlphaHz, fs, 2.0 * std::numbers::pi * unit16(params >> 16));
    m_line = makePhasor<Phasor>(kLineHz, fs, linePhase);
    m_lineAmplitude = kLineHz < fs / 2.0 ? kLineMicrovolts * (0.5 + unit16(params >> 32)) : 0.0;
    m_spikeThreshold = static_cast<std::uint64_t>(std::min(kSpikesPerSecond / fs, 1.0) * 0x1.0p32); // of 2^32

    m_alphaDecay = std::exp(-1.0 / (kAlphaSeconds * fs));
    // Re(z * carrier) has the rms of each component of z; drive: uniform 16-bit steps of variance 65536^2 / 12.
    m_alphaDrive = kAlphaMicrovolts * std::sqrt(12.0 * (1.0 - m_alphaDecay * m_alphaDecay)) / 65536.0;
    m_alphaRe = kAlphaMicrovolts * gaussian(m_events.next()); // start in the stationary state: no warm-up
    m_alphaIm = kAlphaMicrovolts * gaussian(m_events.next());
    for (std::size_t i = 0; i < kPinkPoles.size(); ++i)
        m_pink[i] = gaussian(m_noise.next()) * kPinkWeights[i] / std::sqrt(1.0 - kPinkPoles[i] * kPinkPoles[i]);
}

inline std::uint64_t SyntheticEeg::Random::next()
{
    const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
    const std::uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void SyntheticEeg::fillPink(std::span<double> tile)
{
    Random random = m_noise; // local copies stay in registers
    std::array<double, 3> b = m_pink;
    for (double& v : tile) {
        const double white = gaussian(random.next());
        b[0] = kPinkPoles[0] * b[0] + white * kPinkWeights[0];
        b[1] = kPinkPoles[1] * b[1] + white * kPinkWeights[1];
        b[2] = kPinkPoles[2] * b[2] + white * kPinkWeights[2];
        v = (b[0] + b[1] + b[2] + white * kPinkDirect) * kPinkScale;
    }
    m_noise = random;
    m_pink = b;
}

// Alpha (a complex Ornstein-Uhlenbeck amplitude times a carrier) and mains; keeps 32 bits per sample for spikes.
void SyntheticEeg::addRhythms(std::span<double> tile, std::span<std::uint32_t> triggers)
{
    Random random = m_events;
    Phasor carrier = m_alphaCarrier, line = m_line;
    double re = m_alphaRe, im = m_alphaIm;
    const double decay = m_alphaDecay, drive = m_alphaDrive, lineAmplitude = m_lineAmplitude;
    for (std::size_t i = 0; i < tile.size(); ++i) {
        if ((m_index + i) % 1024 == 0) normalize(carrier), normalize(line);
        const std::uint64_t bits = random.next();
        re = re * decay + drive * (toDouble(bits & 0xFFFF) - 32767.5);
        im = im * decay + drive * (toDouble((bits >> 16) & 0xFFFF) - 32767.5);
        advance(carrier);
        advance(line);
        tile[i] += re * carrier.re - im * carrier.im + lineAmplitude * line.re;
        triggers[i] = static_cast<std::uint32_t>(bits >> 32);
    }
    m_events = random;
    m_alphaCarrier = carrier;
    m_line = line;
    m_alphaRe = re;
    m_alphaIm = im;
}

void SyntheticEeg::addSpikes(std::span<double> tile, std::span<const std::uint32_t> triggers)
{
    Spike k = m_spike;
    for (std::size_t i = 0; i < tile.size(); ++i) {
        if (k.position >= k.length) {
            if (triggers[i] >= m_spikeThreshold) continue;
            k = makeSpike(m_shapes.next());
        }
        const double sharp = biweight((k.position - k.halfWidth) / k.halfWidth);
        const double wave = biweight((k.position - k.halfWidth - k.waveHalfWidth) / k.waveHalfWidth);
        tile[i] += k.amplitude * (sharp + kWaveRatio * wave);
        k.position += 1.0;
    }
    m_spike = k;
}

SyntheticEeg::Spike SyntheticEeg::makeSpike(std::uint64_t bits) const
{
    const double seconds = kSpikeMinSeconds + (kSpikeMaxSeconds - kSpikeMinSeconds) * unit16(bits);
    const double size = kSpikeMinMicrovolts + (kSpikeMaxMicrovolts - kSpikeMinMicrovolts) * unit16(bits >> 16);
    Spike k;
    k.halfWidth = std::max(0.5 * seconds * m_fs, 1.0);
    k.waveHalfWidth = kWaveWidthRatio * k.halfWidth;
    k.length = std::ceil(k.halfWidth + 2.0 * k.waveHalfWidth);
    k.amplitude = (bits >> 63) != 0 ? size : -size;
    return k;
}

void SyntheticEeg::generate(std::span<std::int32_t> out)
{
    constexpr std::size_t kTile = 256;
    std::array<double, kTile> microvolts;
    std::array<std::uint32_t, kTile> triggers;
    const double countsPerMicrovolt = m_gain / kMicrovoltsPerCount;
    for (std::size_t start = 0; start < out.size(); start += kTile) {
        const std::size_t n = std::min(kTile, out.size() - start);
        const std::span<double> tile(microvolts.data(), n);
        fillPink(tile);
        addRhythms(tile, std::span(triggers.data(), n));
        addSpikes(tile, std::span(triggers.data(), n));
        for (std::size_t i = 0; i < n; ++i) out[start + i] = toCounts(microvolts[i] * countsPerMicrovolt);
        m_index += n;
    }
}

} // namespace lv::synth
