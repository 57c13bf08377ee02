// CDF's compressions of variable records (CVVR) and of whole files (CCR): GZIP through libdeflate, and RLE (runs of
// zero bytes). Huffman and adaptive Huffman are refused.
#pragma once

#include "core/Error.h"

#include <cstdint>
#include <span>
#include <string>

namespace lv::formats::cdf {

// Compression codes of CPRs.
enum Compression : std::int32_t { kNoCompression = 0, kRle = 1, kHuffman = 2, kAdaptiveHuffman = 3, kGzip = 5 };

// Inflates `in`, compressed with `compression` (CPR cType), into at least `needed` and at most `out.size()` bytes
// (a CVVR may hold records allocated beyond the variable's last). An error names the file and `offset`, the
// compressed bytes' place in it.
core::Status inflate(std::int32_t compression, std::span<const std::uint8_t> in, std::span<std::uint8_t> out,
                     std::size_t needed, const std::string& path, std::uint64_t offset);

// The most bytes `compressedBytes` can inflate to (deflate: 1032 to 1; RLE: 2 bytes to 256), so that an absurd
// size is refused before it is allocated.
std::uint64_t maxInflatedSize(std::int32_t compression, std::uint64_t compressedBytes);

// "GZIP", "RLE", "Huffman", "adaptive Huffman", "none" or "compression N".
std::string compressionName(std::int32_t compression);

} // namespace lv::formats::cdf
