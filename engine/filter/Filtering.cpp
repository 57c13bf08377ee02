// Causal and zero-phase passes of a biquad cascade (transposed direct form II), with scipy's steady-state start and
// odd padding, and the runs of present samples between gaps.
#include "filter/Filtering.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace lv::filter {

namespace {

struct State {
    double z1 = 0, z2 = 0;
};

// Each section's state in its steady state for a unit step at its input, times the gain of the sections before
// it (scipy.signal.sosfilt_zi).
std::vector<State> steadyState(const Sos& sos)
{
    std::vector<State> zi(sos.size());
    double scale = 1;
    for (std::size_t i = 0; i < sos.size(); ++i) {
        const Section& s = sos[i];
        const double y = (s.b0 + s.b1 + s.b2) / (1 + s.a1 + s.a2);
        zi[i] = {scale * (y - s.b0), scale * (s.b2 - s.a2 * y)};
        scale *= y;
    }
    return zi;
}

void run(const Sos& sos, std::vector<State> zi, double level, std::span<double> x)
{
    for (State& z : zi) z.z1 *= level, z.z2 *= level;
    for (double& v : x) {
        double in = v;
        for (std::size_t i = 0; i < sos.size(); ++i) {
            const Section& s = sos[i];
            State& z = zi[i];
            const double out = s.b0 * in + z.z1;
            z.z1 = s.b1 * in - s.a1 * out + z.z2;
            z.z2 = s.b2 * in - s.a2 * out;
            in = out;
        }
        v = in;
    }
}

// scipy's padlen default: 3 x taps, the taps of a cascade being 2 x sections + 1, less the sections that are of
// first order in both numerator and denominator.
std::size_t padding(const Sos& sos)
{
    std::size_t b2Zero = 0, a2Zero = 0;
    for (const Section& s : sos) b2Zero += s.b2 == 0, a2Zero += s.a2 == 0;
    return 3 * (2 * sos.size() + 1 - std::min(b2Zero, a2Zero));
}

} // namespace

void filterCausal(const Sos& sos, std::span<double> x)
{
    if (x.empty() || sos.empty()) return;
    run(sos, steadyState(sos), x.front(), x);
}

void filterZeroPhase(const Sos& sos, std::span<double> x)
{
    if (x.empty() || sos.empty()) return;
    const std::size_t n = x.size(), edge = std::min(padding(sos), n - 1);
    std::vector<double> ext(n + 2 * edge);
    for (std::size_t i = 0; i < edge; ++i) {
        ext[i] = 2 * x[0] - x[edge - i];                 // x[edge], ..., x[1] reflected about x[0]
        ext[edge + n + i] = 2 * x[n - 1] - x[n - 2 - i]; // x[n-2], ..., x[n-1-edge] reflected about x[n-1]
    }
    std::copy(x.begin(), x.end(), ext.begin() + static_cast<std::ptrdiff_t>(edge));
    const std::vector<State> zi = steadyState(sos);
    run(sos, zi, ext.front(), ext);
    std::reverse(ext.begin(), ext.end());
    run(sos, zi, ext.front(), ext);
    std::reverse(ext.begin(), ext.end());
    std::copy_n(ext.begin() + static_cast<std::ptrdiff_t>(edge), n, x.begin());
}

void filterRuns(const Sos& sos, std::span<double> x, Phase phase)
{
    for (std::size_t i = 0; i < x.size();) {
        if (!std::isfinite(x[i])) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < x.size() && std::isfinite(x[end])) ++end;
        const std::span<double> part = x.subspan(i, end - i);
        phase == Phase::Zero ? filterZeroPhase(sos, part) : filterCausal(sos, part);
        i = end;
    }
}

} // namespace lv::filter
