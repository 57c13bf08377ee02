// Spectrograms kept between runs beside the pyramid: the columns of a Spectrogram in a small little-endian file,
// checked field by field when read back (a damaged file is an error naming it and the offset, then recomputed).
#pragma once

#include "core/Error.h"
#include "spectrum/Spectrogram.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lv::spectrum {

// "LVSPGRAM", version 1, start (int64 uUTC), column length (int64 us), bins and columns (uint32), the bins'
// frequencies (float64), then per column its segment count (uint32) and, when above 0, its bins (float32).
std::vector<std::uint8_t> formatSpectrogram(const Spectrogram& spectrogram);

// Corrupt or Truncated, naming `file` and the offset, when the bytes are not such a file (a wrong magic or
// version, an absurd size, frequencies not rising, a negative or non-finite power).
core::Result<Spectrogram> parseSpectrogram(std::span<const std::uint8_t> bytes, const std::string& file);

core::Status saveSpectrogram(const Spectrogram& spectrogram, const std::string& file); // temporary file and rename
core::Result<Spectrogram> loadSpectrogram(const std::string& file);

} // namespace lv::spectrum
