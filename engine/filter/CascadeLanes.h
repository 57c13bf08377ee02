// The biquad cascade over several signals at once, one per SIMD lane of the build's baseline architecture (xsimd):
// the engine-internal kernel behind filterRunsTogether.
#pragma once

#include "filter/Sos.h"

#include <cstddef>

namespace lv::filter {

// How many signals runLanes takes side by side: four SIMD batches (8 signals on x86-64's SSE2 and on NEON).
std::size_t cascadeLanes();

// One pass of the cascade in place over `frames` frames of cascadeLanes() interleaved signals (signal l's sample j at
// data[j * cascadeLanes() + l]), forward or backward, each section started at its steady state `zi` (z1 and z2 per
// section, for a unit step) times the signal's first sample in the pass: bit for bit what the one-signal pass in
// Filtering.cpp gives each signal.
void runLanes(const Sos& sos, const double* zi, double* data, std::size_t frames, bool backward);

} // namespace lv::filter
