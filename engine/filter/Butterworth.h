// Butterworth low-, high-, band-pass and band-stop filters of order 1-8 and notch filters, designed for a sample
// rate as second-order sections: the bilinear transform of the analog prototype with its edges prewarped, the same
// designs as scipy.signal.butter(output="sos") and scipy.signal.iirnotch. Frequencies in Hz.
#pragma once

#include "core/Error.h"
#include "filter/Sos.h"

namespace lv::filter {

enum class Band { LowPass, HighPass, BandPass, BandStop };

inline constexpr int kMaxOrder = 8;

// `order` 1-8; `low` the edge of a low- or high-pass, the lower edge of a band; `high` a band's upper edge.
// InvalidArgument, in words, when the order or an edge is out of range for `fs`.
core::Result<Sos> butterworth(Band band, int order, double fs, double low, double high = 0);

// A notch at `hz` whose -3 dB width is hz / q (scipy.signal.iirnotch).
core::Result<Section> notch(double fs, double hz, double q);

} // namespace lv::filter
