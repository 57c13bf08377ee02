// Frequency response, DC gain and settling time of a cascade of biquads.
#include "filter/Sos.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace lv::filter {

std::complex<double> response(const Sos& sos, double hz, double fs)
{
    const std::complex<double> zInv = std::polar(1.0, -2 * std::numbers::pi * hz / fs);
    std::complex<double> h = 1;
    for (const Section& s : sos) h *= (s.b0 + zInv * (s.b1 + zInv * s.b2)) / (1.0 + zInv * (s.a1 + zInv * s.a2));
    return h;
}

double dcGain(const Sos& sos)
{
    double g = 1;
    for (const Section& s : sos) g *= (s.b0 + s.b1 + s.b2) / (1 + s.a1 + s.a2);
    return g;
}

long long settleSamples(const Sos& sos)
{
    double slowest = 0; // the largest pole radius
    for (const Section& s : sos) {
        // roots of z^2 + a1 z + a2
        const std::complex<double> d = std::sqrt(std::complex<double>(s.a1 * s.a1 - 4 * s.a2));
        slowest = std::max({slowest, std::abs((-s.a1 + d) / 2.0), std::abs((-s.a1 - d) / 2.0)});
    }
    if (slowest <= 0) return 0;
    if (slowest >= 1) return -1; // unstable: never settles
    return static_cast<long long>(std::ceil(std::log(1e-4) / std::log(slowest)));
}

} // namespace lv::filter
