// Synthetic EEG-like test signals (1/f noise, a waxing and waning alpha rhythm, sensor noise) and quantisation.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace lv::bench {

// `count` samples in microvolts at `fs` Hz, deterministic for a given seed; peaks of roughly 50-100 uV.
std::vector<double> eegMicrovolts(std::size_t count, double fs, std::uint64_t seed);

// Stored counts: round(value / uvPerCount).
std::vector<std::int32_t> quantise(std::span<const double> microvolts, double uvPerCount);

} // namespace lv::bench
