// Physical values to stored integer counts: the conversion factor (physical units per count) requested or
// inferred from the data, and how much the rounding changed the data.
#pragma once

#include "core/Error.h"

#include <cstdint>
#include <span>
#include <vector>

namespace lv::core {

struct QuantizationChoice {
    double factor = 1.0;   // physical units per count
    bool inferred = false; // chosen from the data rather than requested
    bool exact = false;    // every value looked at is a whole multiple of the factor
};

// With `requested` > 0, that factor. Otherwise the data's own resolution when every finite value is a whole
// multiple of the smallest step between neighbours (data that came from integer counts, as EDF, BDF or any
// ADC gives); else the largest 1-2-5 step at or below 1/32 of the typical sample-to-sample change, so that the
// rounding noise (factor / sqrt(12)) stays near 1% of it. Looks at the first million finite values.
QuantizationChoice chooseQuantization(std::span<const double> values, double requested);

// What rounding did to the data, accumulated over calls.
struct QuantizationError {
    std::int64_t values = 0; // finite values converted
    double maxAbs = 0.0;     // largest |value - count * factor|, physical units
    double sumSquares = 0.0; // of those differences
    double rms() const;
};

// counts[i] = round(values[i] / factor); NaN becomes kNoSample (a gap). A value whose count does not fit in
// int32 (or is infinite) is an InvalidArgument error naming its index.
Status quantize(std::span<const double> values, double factor, std::span<std::int32_t> counts,
                QuantizationError& error);

// Values that are not counts (floats) as counts: the data's own resolution when every value seen is a whole multiple
// of it (and the counts keep headroom), else a power of two that keeps 2^27 steps (4 bits of headroom in int32) up
// to the largest magnitude seen, so float32 values near it are kept exactly.
QuantizationChoice storedStepOf(const std::vector<double>& values);

} // namespace lv::core
