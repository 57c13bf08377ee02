// How an MDF 4 channel's samples become the engine's int32 counts: integers as stored, other values at a step
// chosen from their first values.
#pragma once

#include "core/Quantization.h"
#include "formats/mdf4/Mdf4Structure.h"

#include <vector>

namespace lv::formats::mdf4 {

// A numeric channel (integer or float, not VLSD, not a master).
bool isNumber(const Channel& c);

// Integer raw values that fit int32, converted by the identity, a linear function or to text (whose counts are then
// labelled): counts as stored.
bool storedAsCounts(const Channel& c);

// Physical values as counts: the data's own resolution when every value seen is a whole multiple of it (and the
// counts keep headroom), else a power of two that keeps 2^27 steps (4 bits of headroom in int32) up to the largest
// magnitude seen, so float32 values near it are kept exactly.
core::QuantizationChoice quantizationOf(const std::vector<double>& values);

} // namespace lv::formats::mdf4
