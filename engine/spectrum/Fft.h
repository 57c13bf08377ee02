// Real-to-complex FFTs through FFTW (double precision): plans made once per length under a lock (FFTW's planner
// is not thread-safe), executed from any thread on the caller's buffers.
#pragma once

#include <complex>
#include <cstddef>
#include <span>
#include <string>

namespace lv::spectrum {

// FFTW's own version words ("fftw-3.3.10-sse2-avx"), for Help > About.
std::string fftLibraryVersion();

// The n / 2 + 1 non-negative-frequency bins of the DFT of `in` (n = in.size() >= 1) into `out`.
void realFft(std::span<const double> in, std::span<std::complex<double>> out);

} // namespace lv::spectrum
