// Running a cascade of biquads over samples: causal (one pass) or zero-phase (forward and backward, as
// scipy.signal.sosfiltfilt with its default odd padding), and over a channel's runs of present samples, restarted
// at every gap so that a filter never carries a value across missing data.
#pragma once

#include "filter/Sos.h"

#include <span>

namespace lv::filter {

enum class Phase { Zero, Causal };

// One forward pass in place, every section started in its steady state for a constant input equal to x[0] (no
// start-up transient from a step at the first sample).
void filterCausal(const Sos& sos, std::span<double> x);

// Forward and backward in place: no phase shift, the magnitude response squared. Padded at both ends by an odd
// reflection of 3 x (2 x sections + 1) samples (fewer when x is shorter), as scipy.signal.sosfiltfilt.
void filterZeroPhase(const Sos& sos, std::span<double> x);

// Each run of finite values in x filtered on its own, NaN (missing) left as it is.
void filterRuns(const Sos& sos, std::span<double> x, Phase phase);

// filterRuns of each of `xs`, with runs of one length (in any of the signals) taken through the cascade side by side,
// one per SIMD lane (cascadeLanes() at a time): each signal ends bit for bit as filterRuns leaves it, in about
// 1 / cascadeLanes() of the time when the signals have runs of the same length (the lanes of a page without gaps).
void filterRunsTogether(const Sos& sos, std::span<const std::span<double>> xs, Phase phase);

} // namespace lv::filter
