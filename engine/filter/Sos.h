// A digital IIR filter as a cascade of second-order sections (biquads), each normalised so that a0 = 1; sample
// rates in Hz, frequencies in Hz.
#pragma once

#include <complex>
#include <vector>

namespace lv::filter {

struct Section {
    double b0 = 1, b1 = 0, b2 = 0; // numerator
    double a1 = 0, a2 = 0;         // denominator, a0 = 1
};

using Sos = std::vector<Section>;

// The frequency response of the cascade at `hz` for sample rate `fs`: H(e^{j 2 pi hz / fs}).
std::complex<double> response(const Sos& sos, double hz, double fs);

// The cascade's gain at DC (z = 1): what a constant input settles to.
double dcGain(const Sos& sos);

// Samples until the slowest pole's response has decayed to 1e-4 of its start (-80 dB): the margin a filter
// needs before the first sample it is trusted for. 0 for a cascade without poles.
long long settleSamples(const Sos& sos);

} // namespace lv::filter
