// A channel's conversion (CC) from raw values to physical values: numbers, texts, or both (value-to-text).
#pragma once

#include "core/Error.h"
#include "formats/mdf4/Mdf4Structure.h"
#include "io/ByteSource.h"

#include <optional>
#include <string>

namespace lv::formats::mdf4 {

// The CC at `offset` with what its refs lead to: the formula of an algebraic conversion, the texts of value/range
// to text and text conversions, nested conversions (at most 8 deep, a loop refused). `rawIsFloat`: the raw values
// are floats (range ends are then exclusive). Counts that do not fit the block or the kind are Corrupt.
core::Result<Conversion> readConversion(const io::ByteSource& file, std::uint64_t offset, bool rawIsFloat);

// One physical value: a number, or a text (value/range-to-text, bitfield-to-text, text-to-text, strings).
struct Physical {
    double number = 0;
    std::optional<std::string> text;

    bool isText() const { return text.has_value(); }
};

// True when `conversion` turns every raw number into a number: identity, linear, rational, an algebraic formula
// that was understood, the tables (4, 5, 6), and value/range-to-text whose every outcome is a numeric conversion.
bool isNumericConversion(const Conversion& conversion);

// The number a raw value converts to; NaN where the conversion gives a text (or is not understood).
double convert(const Conversion& conversion, double raw);

// The text a raw value converts to (value/range-to-text, bitfield-to-text), nullopt where it gives a number.
std::optional<std::string> convertToText(const Conversion& conversion, double raw);

// Either of the two, as mdf-check keeps them: a value-to-text table can give texts for some raw values and
// numbers (nested conversions) for others.
Physical convertToPhysical(const Conversion& conversion, double raw);

// The conversion of a text (a string channel's value): text-to-value gives a number, text-to-text a text; the
// numeric kinds leave a text as it is (as mdf-check and asammdf do).
Physical convertText(const Conversion& conversion, const std::string& raw);

} // namespace lv::formats::mdf4
