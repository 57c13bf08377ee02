// A channel's stored values to counts: one loop per data type and byte order (no per-value dispatch), integers that
// are counts taken as they are, the others divided by the channel's step and rounded.
#pragma once

#include "formats/cdf/CdfTypes.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace lv::formats::cdf {

struct CountCoding {
    std::int32_t type = 0;
    ByteOrder order = ByteOrder::Little;
    double step = 1.0;               // values per count
    std::optional<double> fill, pad; // values that read as missing (NaN too)
};

// `count` values `stride` bytes apart to counts in out[0, count): records whose held[i] is 0 are left as they are
// (kNoSample); fill, pad and NaN values are kNoSample. False when some value lies beyond int32 counts (kNoSample).
bool valuesToCounts(const CountCoding& coding, const std::uint8_t* values, std::size_t stride, const std::uint8_t* held,
                    std::size_t count, std::int32_t* out);

} // namespace lv::formats::cdf
