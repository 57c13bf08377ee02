// DZ's transposition: rows of records to column order and back, 16 x 16 byte tiles at a time in SIMD registers
// (xsimd, the build's baseline: SSE2 on x86-64, NEON on arm64), the edges byte by byte.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lv::formats::mdf4 {

// `rows` rows of `columns` bytes in row order (`in`) to column order (`out`): byte c of row r goes to c * rows + r.
// `in` and `out` do not overlap.
void toColumnOrder(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out);

// The reverse: byte c * rows + r of `in` goes to r * columns + c of `out`.
void toRowOrder(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out);

// A DZ block of `bytes` as its transposition takes it: the whole rows of `columns` bytes to column order (or back),
// then the bytes of a last partial row copied as they are.
void blockToColumnOrder(const std::uint8_t* in, std::size_t bytes, std::size_t columns, std::uint8_t* out);
void blockToRowOrder(const std::uint8_t* in, std::size_t bytes, std::size_t columns, std::uint8_t* out);

// The same byte by byte, for tests and the edges.
void toColumnOrderScalar(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out);
void toRowOrderScalar(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out);

} // namespace lv::formats::mdf4
