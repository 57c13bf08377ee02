// Causal and zero-phase passes of a biquad cascade (transposed direct form II), with scipy's steady-state start and
// odd padding, and the runs of present samples between gaps.
#include "filter/Filtering.h"

#include "filter/CascadeLanes.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
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

// steadyState as z1, z2 per section, for runLanes.
std::vector<double> flatSteadyState(const Sos& sos)
{
    std::vector<double> flat;
    for (const State& z : steadyState(sos)) flat.insert(flat.end(), {z.z1, z.z2});
    return flat;
}

// Room for `values` doubles, uninitialised: the thread's own buffer of 1 Mi doubles, reused call after call (fresh
// memory costs more in page faults and zeroing than the filter itself), or for more a buffer of its own.
class Scratch {
public:
    explicit Scratch(std::size_t values) : m_size(values)
    {
        constexpr std::size_t kKept = std::size_t{1} << 20;
        thread_local std::unique_ptr<double[]> kept;
        if (values > kKept) {
            m_own.reset(new double[values]);
            m_data = m_own.get();
            return;
        }
        if (!kept) kept.reset(new double[kKept]);
        m_data = kept.get();
    }
    std::span<double> span() const { return {m_data, m_size}; }

private:
    std::unique_ptr<double[]> m_own;
    double* m_data = nullptr;
    std::size_t m_size = 0;
};

// Runs of one length into frames of cascadeLanes() values from `at` on (frame by frame: each frame written once;
// lanes without a run hold zeros), and back.
void interleave(std::span<const std::span<double>> runs, double* at)
{
    const std::size_t lanes = cascadeLanes(), n = runs.front().size();
    for (std::size_t j = 0; j < n; ++j, at += lanes) {
        for (std::size_t l = 0; l < runs.size(); ++l) at[l] = runs[l][j];
        std::fill(at + runs.size(), at + lanes, 0.0);
    }
}

void deinterleave(const double* at, std::span<const std::span<double>> runs)
{
    const std::size_t lanes = cascadeLanes(), n = runs.front().size();
    for (std::size_t j = 0; j < n; ++j, at += lanes)
        for (std::size_t l = 0; l < runs.size(); ++l) runs[l][j] = at[l];
}

// filterZeroPhase of up to cascadeLanes() runs of one length, interleaved (lanes without a run hold zeros): the same
// padding, passes and crop.
void zeroPhaseLanes(const Sos& sos, std::span<const std::span<double>> runs)
{
    const std::size_t lanes = cascadeLanes(), n = runs.front().size(), edge = std::min(padding(sos), n - 1);
    const Scratch room((n + 2 * edge) * lanes);
    const std::span<double> ext = room.span();
    interleave(runs, ext.data() + edge * lanes);
    std::fill(ext.begin(), ext.begin() + static_cast<std::ptrdiff_t>(edge * lanes), 0.0); // the lanes without a run
    std::fill(ext.end() - static_cast<std::ptrdiff_t>(edge * lanes), ext.end(), 0.0);
    for (std::size_t l = 0; l < runs.size(); ++l) {
        const std::span<double> x = runs[l];
        for (std::size_t i = 0; i < edge; ++i) {
            ext[i * lanes + l] = 2 * x[0] - x[edge - i];
            ext[(edge + n + i) * lanes + l] = 2 * x[n - 1] - x[n - 2 - i];
        }
    }
    const std::vector<double> zi = flatSteadyState(sos);
    runLanes(sos, zi.data(), ext.data(), n + 2 * edge, false);
    runLanes(sos, zi.data(), ext.data(), n + 2 * edge, true);
    deinterleave(ext.data() + edge * lanes, runs);
}

// filterCausal of up to cascadeLanes() runs of one length, interleaved.
void causalLanes(const Sos& sos, std::span<const std::span<double>> runs)
{
    const Scratch room(runs.front().size() * cascadeLanes());
    const std::span<double> data = room.span();
    interleave(runs, data.data());
    runLanes(sos, flatSteadyState(sos).data(), data.data(), runs.front().size(), false);
    deinterleave(data.data(), runs);
}

// The runs of finite values in x.
void appendRuns(std::span<double> x, std::map<std::size_t, std::vector<std::span<double>>>& byLength)
{
    for (std::size_t i = 0; i < x.size();) {
        std::size_t end = i;
        while (end < x.size() && std::isfinite(x[end])) ++end;
        if (end > i) byLength[end - i].push_back(x.subspan(i, end - i));
        i = std::max(end, i + 1);
    }
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

void filterRunsTogether(const Sos& sos, std::span<const std::span<double>> xs, Phase phase)
{
    if (sos.empty()) return;
    std::map<std::size_t, std::vector<std::span<double>>> byLength;
    for (const std::span<double> x : xs) appendRuns(x, byLength);
    const std::size_t lanes = cascadeLanes();
    for (auto& [length, runs] : byLength) {
        if (runs.size() == 1) { // a run met once: the one-signal pass
            phase == Phase::Zero ? filterZeroPhase(sos, runs.front()) : filterCausal(sos, runs.front());
            continue;
        }
        for (std::size_t k = 0; k < runs.size(); k += lanes) {
            const std::span<const std::span<double>> group(runs.data() + k, std::min(lanes, runs.size() - k));
            phase == Phase::Zero ? zeroPhaseLanes(sos, group) : causalLanes(sos, group);
        }
    }
}

} // namespace lv::filter
