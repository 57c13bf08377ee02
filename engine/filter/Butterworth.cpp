// Butterworth and notch designs: prototype poles, band transform, bilinear transform, pairing into biquads, and the
// gain set at the pass band's reference frequency.
#include "filter/Butterworth.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <string>
#include <tuple>

namespace lv::filter {

namespace {

using Complex = std::complex<double>;
using Roots = std::vector<Complex>;
constexpr double kFs = 2; // designs run at a normalised rate of 2, as scipy's do

std::string hz(double f)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g Hz", f);
    return text;
}

// The analog prototype's poles (cutoff 1 rad/s): -exp(j pi m / 2n), m = -n+1, -n+3, ..., n-1.
Roots prototype(int order)
{
    Roots p;
    for (int m = -order + 1; m < order; m += 2) p.push_back(-std::exp(Complex(0, std::numbers::pi * m / (2 * order))));
    return p;
}

double prewarp(double f, double fs) { return 2 * kFs * std::tan(std::numbers::pi * f / fs); }

Complex bilinear(Complex s) { return (2 * kFs + s) / (2 * kFs - s); }

// Roots in pairs for biquads: conjugate pairs first, then the real ones two by two (a lone one last).
std::vector<std::pair<Complex, Complex>> pairs(Roots roots)
{
    constexpr double kReal = 1e-10;
    std::vector<std::pair<Complex, Complex>> out;
    Roots real;
    std::sort(roots.begin(), roots.end(), [](Complex a, Complex b) { return a.real() < b.real(); });
    for (const Complex r : roots) {
        if (std::abs(r.imag()) <= kReal) {
            real.push_back(r.real());
        } else if (r.imag() > 0) {
            out.emplace_back(r, std::conj(r));
        }
    }
    for (std::size_t i = 0; i < real.size(); i += 2)
        out.emplace_back(real[i], i + 1 < real.size() ? real[i + 1] : Complex(std::nan("")));
    return out;
}

// z^2 - (r1 + r2) z + r1 r2 as {1, c1, c2}; a lone root r as z - r.
std::pair<double, double> polynomial(std::pair<Complex, Complex> r)
{
    if (std::isnan(r.second.real())) return {-r.first.real(), 0};
    return {-(r.first + r.second).real(), (r.first * r.second).real()};
}

Sos sections(const Roots& zeros, const Roots& poles)
{
    const auto zp = pairs(zeros), pp = pairs(poles);
    Sos sos(pp.size());
    for (std::size_t i = 0; i < pp.size(); ++i) {
        std::tie(sos[i].a1, sos[i].a2) = polynomial(pp[i]);
        if (i < zp.size()) std::tie(sos[i].b1, sos[i].b2) = polynomial(zp[i]);
    }
    return sos;
}

core::Status checkEdges(Band band, int order, double fs, double low, double high)
{
    const auto bad = [](std::string what) {
        return core::makeError(core::ErrorCode::InvalidArgument, std::move(what));
    };
    if (order < 1 || order > kMaxOrder)
        return bad("a Butterworth filter of order " + std::to_string(order) + " is not made: orders are 1 to 8");
    if (!(fs > 0) || !std::isfinite(fs)) return bad("a filter needs a sample rate, not " + hz(fs));
    const bool banded = band == Band::BandPass || band == Band::BandStop;
    if (!(low > 0) || !(low < fs / 2))
        return bad("a filter edge at " + hz(low) + " must lie between 0 and half the sample rate (" + hz(fs / 2) + ")");
    if (banded && (!(high > low) || !(high < fs / 2)))
        return bad("a band's upper edge at " + hz(high) + " must lie above its lower edge (" + hz(low) +
                   ") and below half the sample rate (" + hz(fs / 2) + ")");
    return {};
}

} // namespace

core::Result<Sos> butterworth(Band band, int order, double fs, double low, double high)
{
    LV_TRY(checkEdges(band, order, fs, low, high));
    const double w1 = prewarp(low, fs), w2 = band == Band::BandPass || band == Band::BandStop ? prewarp(high, fs) : 0;
    const double w0 = std::sqrt(w1 * w2), bw = w2 - w1;
    Roots poles, zeros; // analog; zeros at infinity are left out
    for (const Complex p : prototype(order)) {
        switch (band) {
        case Band::LowPass:
            poles.push_back(w1 * p);
            break;
        case Band::HighPass:
            poles.push_back(w1 / p);
            zeros.push_back(0);
            break;
        case Band::BandPass:
        case Band::BandStop: {
            const Complex half = band == Band::BandPass ? p * bw / 2.0 : bw / 2.0 / p;
            const Complex root = std::sqrt(half * half - w0 * w0);
            poles.push_back(half + root);
            poles.push_back(half - root);
            if (band == Band::BandPass) {
                zeros.push_back(0);
            } else {
                zeros.push_back(Complex(0, w0));
                zeros.push_back(Complex(0, -w0));
            }
        }
        }
    }
    Roots zd, pd;
    for (const Complex p : poles) pd.push_back(bilinear(p));
    for (const Complex z : zeros) zd.push_back(bilinear(z));
    while (zd.size() < pd.size()) zd.push_back(-1.0); // zeros at infinity land on Nyquist
    Sos sos = sections(zd, pd);
    const double reference = band == Band::HighPass   ? fs / 2
                             : band == Band::BandPass ? fs / std::numbers::pi * std::atan(w0 / (2 * kFs))
                                                      : 0;
    const double gain = 1 / std::abs(response(sos, reference, fs));
    sos.front().b0 *= gain, sos.front().b1 *= gain, sos.front().b2 *= gain;
    return sos;
}

core::Result<Section> notch(double fs, double hz0, double q)
{
    if (!(fs > 0) || !(hz0 > 0) || !(hz0 < fs / 2))
        return core::makeError(core::ErrorCode::InvalidArgument, "a notch at " + hz(hz0) +
                                                                     " must lie between 0 and half the sample rate (" +
                                                                     hz(fs / 2) + ")");
    if (!(q > 0) || !std::isfinite(q))
        return core::makeError(core::ErrorCode::InvalidArgument, "a notch's quality factor must be above 0");
    const double w0 = std::numbers::pi * 2 * hz0 / fs, beta = std::tan(w0 / q / 2), gain = 1 / (1 + beta);
    return Section{gain, -2 * gain * std::cos(w0), gain, -2 * gain * std::cos(w0), 2 * gain - 1};
}

} // namespace lv::filter
