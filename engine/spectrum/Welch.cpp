// Welch's average of modified periodograms, segment by segment within each run of finite samples.
#include "spectrum/Welch.h"

#include "spectrum/Fft.h"

#include <cmath>
#include <complex>
#include <numbers>

namespace lv::spectrum {

std::vector<double> windowOf(Window window, std::size_t n)
{
    std::vector<double> w(n, 1.0);
    const double N = static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double phase = 2 * std::numbers::pi * static_cast<double>(i) / N;
        switch (window) {
        case Window::Hann:
            w[i] = 0.5 - 0.5 * std::cos(phase);
            break;
        case Window::Hamming:
            w[i] = 0.54 - 0.46 * std::cos(phase);
            break;
        case Window::Blackman:
            w[i] = 0.42 - 0.5 * std::cos(phase) + 0.08 * std::cos(2 * phase);
            break;
        case Window::Rectangular:
            break;
        }
    }
    return w;
}

core::Result<Window> windowFromName(const std::string& name)
{
    if (name == "hann") return Window::Hann;
    if (name == "hamming") return Window::Hamming;
    if (name == "blackman") return Window::Blackman;
    if (name == "rectangular" || name == "boxcar") return Window::Rectangular;
    return core::makeError(core::ErrorCode::InvalidArgument,
                           "window \"" + name + "\": expected hann, hamming, blackman or rectangular");
}

core::Result<WelchAccumulator> WelchAccumulator::create(double fs, const WelchOptions& o)
{
    if (o.segment < 2)
        return core::makeError(core::ErrorCode::InvalidArgument, "a spectrum's segment needs at least 2 samples");
    if (!(o.overlap >= 0 && o.overlap < 1))
        return core::makeError(core::ErrorCode::InvalidArgument, "a spectrum's overlap lies in [0, 1)");
    if (!(fs > 0) || !std::isfinite(fs))
        return core::makeError(core::ErrorCode::InvalidArgument, "a spectrum needs a sample rate");
    WelchAccumulator a;
    a.m_fs = fs;
    a.m_step = o.segment - static_cast<std::size_t>(std::floor(static_cast<double>(o.segment) * o.overlap));
    a.m_window = windowOf(o.window, o.segment);
    a.m_sum.assign(o.segment / 2 + 1, 0.0);
    a.m_scratch.resize(o.segment);
    a.m_bins.resize(o.segment / 2 + 1);
    return a;
}

// Adds the periodogram of one segment (its mean removed, windowed) to the sums.
void WelchAccumulator::take(std::span<const double> x)
{
    const std::size_t n = m_window.size();
    double mean = 0;
    for (const double v : x) mean += v;
    mean /= static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i) m_scratch[i] = (x[i] - mean) * m_window[i];
    realFft(m_scratch, m_bins);
    for (std::size_t k = 0; k < m_bins.size(); ++k) m_sum[k] += std::norm(m_bins[k]);
    ++m_segments;
}

void WelchAccumulator::add(std::span<const double> x)
{
    const std::size_t n = m_window.size();
    for (std::size_t i = 0; i < x.size();) {
        if (!std::isfinite(x[i])) {
            m_run.clear(); // a gap: the next segment starts after it
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < x.size() && std::isfinite(x[end])) ++end;
        m_present += end - i;
        m_run.insert(m_run.end(), x.begin() + static_cast<std::ptrdiff_t>(i),
                     x.begin() + static_cast<std::ptrdiff_t>(end));
        std::size_t from = 0;
        for (; from + n <= m_run.size(); from += m_step) take(std::span<const double>(m_run).subspan(from, n));
        m_run.erase(m_run.begin(), m_run.begin() + static_cast<std::ptrdiff_t>(std::min(from, m_run.size())));
        i = end;
    }
}

Psd WelchAccumulator::result() const
{
    const std::size_t n = m_window.size(), bins = n / 2 + 1;
    Psd psd;
    for (std::size_t k = 0; k < bins; ++k)
        psd.frequencies.push_back(static_cast<double>(k) * m_fs / static_cast<double>(n));
    psd.segments = m_segments;
    psd.seconds = static_cast<double>(m_present) / m_fs;
    if (m_segments == 0) return psd;
    double energy = 0;
    for (const double w : m_window) energy += w * w;
    const double scale = 1.0 / (m_fs * energy * static_cast<double>(m_segments));
    psd.power.resize(bins);
    for (std::size_t k = 0; k < bins; ++k) {
        const bool doubled = k > 0 && !(n % 2 == 0 && k == bins - 1); // one-sided: not DC, not an even n's Nyquist
        psd.power[k] = m_sum[k] * scale * (doubled ? 2 : 1);
    }
    return psd;
}

core::Result<Psd> welch(std::span<const double> x, double fs, const WelchOptions& options)
{
    auto a = WelchAccumulator::create(fs, options);
    if (!a) return a.error();
    a->add(x);
    return a->result();
}

double bandPower(const Psd& psd, double low, double high)
{
    if (psd.power.size() < 2) return 0;
    const double df = psd.frequencies[1] - psd.frequencies[0];
    double total = 0;
    for (std::size_t k = 0; k < psd.power.size(); ++k)
        if (psd.frequencies[k] >= low && psd.frequencies[k] < high) total += psd.power[k] * df;
    return total;
}

} // namespace lv::spectrum
