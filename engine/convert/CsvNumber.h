// Physical values in CSV at the channel's resolution: the shortest decimal that identifies the stored count.
#pragma once

#include <cstdint>
#include <string>

namespace lv::convert {

// Appends the decimal with the fewest decimals, count * factor + offset rounded to them, for which
// round((x - offset) / factor) == count: a count of 297 at 0.1 per count is "29.7", never "29.700000000000003",
// and 300 is "30". Magnitudes below 1e-5 or from 1e15 are written in general notation with the fewest significant
// digits ("3.2e-06"). `factor` must be finite and non-zero.
void appendCountValue(std::string& out, std::int32_t count, double factor, double offset);

} // namespace lv::convert
