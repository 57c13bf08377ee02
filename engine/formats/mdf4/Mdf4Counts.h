// Which MDF 4 channels are numbers, and which of them are kept as their stored integer counts.
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

} // namespace lv::formats::mdf4
