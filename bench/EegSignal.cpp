// EEG-like signal: pink noise (Kellet's filter) low-passed (2 poles near 35 Hz), a 10 Hz alpha rhythm, white sensor
// noise.
#include "EegSignal.h"

#include <cmath>
#include <numbers>
#include <random>

namespace lv::bench {

namespace {

// Paul Kellet's refined pink-noise filter: white in, approximately 1/f out.
class PinkFilter {
public:
    double next(double white)
    {
        m_b[0] = 0.99886 * m_b[0] + white * 0.0555179;
        m_b[1] = 0.99332 * m_b[1] + white * 0.0750759;
        m_b[2] = 0.96900 * m_b[2] + white * 0.1538520;
        m_b[3] = 0.86650 * m_b[3] + white * 0.3104856;
        m_b[4] = 0.55000 * m_b[4] + white * 0.5329522;
        m_b[5] = -0.7616 * m_b[5] - white * 0.0168980;
        const double pink = m_b[0] + m_b[1] + m_b[2] + m_b[3] + m_b[4] + m_b[5] + m_b[6] + white * 0.5362;
        m_b[6] = white * 0.115926;
        return pink;
    }

private:
    double m_b[7] = {};
};

} // namespace

std::vector<double> eegMicrovolts(std::size_t count, double fs, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> gauss(0.0, 1.0);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    const double twoPi = 2.0 * std::numbers::pi;
    const double alphaHz = 9.5 + uniform(rng); // per-channel alpha frequency
    const double alphaPhase = twoPi * uniform(rng);
    const double wanePhase = twoPi * uniform(rng);
    const double lowPass = 1.0 - std::exp(-twoPi * 35.0 / fs); // two one-pole stages, corners near 35 Hz

    PinkFilter pink;
    for (int i = 0; i < 2000; ++i) pink.next(gauss(rng)); // settle the filter state
    std::vector<double> out(count);
    double stage1 = 0.0, smooth = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        const double t = static_cast<double>(i) / fs;
        stage1 += lowPass * (6.0 * pink.next(gauss(rng)) - stage1);
        smooth += lowPass * (stage1 - smooth);                                        // about 15 uV rms
        const double envelope = 25.0 + 15.0 * std::sin(twoPi * 0.07 * t + wanePhase); // waxing and waning
        const double alpha = envelope * std::sin(twoPi * alphaHz * t + alphaPhase);
        out[i] = smooth + alpha + 0.7 * gauss(rng); // sensor noise
    }
    return out;
}

std::vector<std::int32_t> quantise(std::span<const double> microvolts, double uvPerCount)
{
    std::vector<std::int32_t> out(microvolts.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<std::int32_t>(std::llround(microvolts[i] / uvPerCount));
    return out;
}

} // namespace lv::bench
