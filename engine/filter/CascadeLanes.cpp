// The cascade's transposed direct form II with each operation on a batch of signals: the same operations in the
// same order as the scalar pass, so each lane rounds exactly as the signal filtered alone would. Section by section
// over the whole pass (a section's output at a sample depends only on its own state and its input there), with
// kBatches batches in flight so that their recursions, each a chain of dependent operations, overlap.
#include "filter/CascadeLanes.h"

#include <array>
#include <xsimd/xsimd.hpp>

namespace lv::filter {

namespace {

using Doubles = xsimd::batch<double>;
constexpr std::size_t kWidth = Doubles::size;
constexpr std::size_t kBatches = 4;
constexpr std::size_t kLanes = kWidth * kBatches;

struct Coefficients {
    Doubles b0, b1, b2, a1, a2;
};

struct Lane {
    Doubles z1, z2;
};

inline void step(const Coefficients& s, Lane& z, double* p)
{
    const Doubles in = Doubles::load_unaligned(p);
    const Doubles out = s.b0 * in + z.z1;
    z.z1 = s.b1 * in - s.a1 * out + z.z2;
    z.z2 = s.b2 * in - s.a2 * out;
    out.store_unaligned(p);
}

// One section over every frame of the pass.
void runSection(const Coefficients& s, std::array<Lane, kBatches> z, double* data, std::size_t frames, bool backward)
{
    const std::ptrdiff_t stride = backward ? -static_cast<std::ptrdiff_t>(kLanes) : static_cast<std::ptrdiff_t>(kLanes);
    double* p = data + (backward ? (frames - 1) * kLanes : 0);
    for (std::size_t k = 0; k < frames; ++k, p += stride) {
        step(s, z[0], p);
        step(s, z[1], p + kWidth);
        step(s, z[2], p + 2 * kWidth);
        step(s, z[3], p + 3 * kWidth);
    }
}

} // namespace

std::size_t cascadeLanes() { return kLanes; }

void runLanes(const Sos& sos, const double* zi, double* data, std::size_t frames, bool backward)
{
    static_assert(kBatches == 4, "runSection steps four batches");
    if (frames == 0) return;
    std::array<Doubles, kBatches> level; // the pass's first input sample: every section's start scales by it
    const double* first = data + (backward ? (frames - 1) * kLanes : 0);
    for (std::size_t b = 0; b < kBatches; ++b) level[b] = Doubles::load_unaligned(first + b * kWidth);
    for (std::size_t i = 0; i < sos.size(); ++i) {
        const Section& s = sos[i];
        std::array<Lane, kBatches> z;
        for (std::size_t b = 0; b < kBatches; ++b)
            z[b] = {Doubles(zi[2 * i]) * level[b], Doubles(zi[2 * i + 1]) * level[b]};
        runSection({Doubles(s.b0), Doubles(s.b1), Doubles(s.b2), Doubles(s.a1), Doubles(s.a2)}, z, data, frames,
                   backward);
    }
}

} // namespace lv::filter
