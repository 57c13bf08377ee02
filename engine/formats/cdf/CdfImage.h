// A CDF file's bytes as its records see them: the file itself, or the inflated image of a whole-file compressed
// CDF (a CCR after the magic numbers).
#pragma once

#include "core/Error.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <string>

namespace lv::formats::cdf {

// The bytes the records live in: the file itself, or the inflated image of a whole-file compressed CDF (offsets in
// the records count from the start of that image, magic numbers included).
struct Image {
    io::ByteSourcePtr source;
    bool wideOffsets = true;          // CDF 3
    std::string compression = "none"; // of the whole file
};

// Checks the magic numbers and inflates a compressed file.
core::Result<Image> openImage(const io::ByteSourcePtr& file);
// Whether 8 bytes start a CDF: 0xCDF30001, 0xCDF26002 or 0x0000FFFF, then 0x0000FFFF or 0xCCCC0001.
bool hasCdfMagic(const std::uint8_t* first8);

} // namespace lv::formats::cdf
