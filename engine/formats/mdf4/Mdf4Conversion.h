// A channel's conversion (CC) from raw values to physical values, as far as it gives numbers.
#pragma once

#include "formats/mdf4/Mdf4Structure.h"

namespace lv::formats::mdf4 {

// True when `conversion` turns every raw value into a number (channelValues reads those channels).
bool isNumericConversion(const Conversion& conversion);

// The conversion of a raw value: identity, linear, rational; NaN for the kinds not read yet.
double convert(const Conversion& conversion, double raw);

} // namespace lv::formats::mdf4
