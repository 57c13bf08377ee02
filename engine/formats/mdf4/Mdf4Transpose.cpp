// Byte matrix transposition for DZ blocks: four rounds of byte interleaves transpose a 16 x 16 tile in registers.
#include "formats/mdf4/Mdf4Transpose.h"

#include <cstring>
#include <xsimd/xsimd.hpp>

namespace lv::formats::mdf4 {

namespace {

using Bytes = xsimd::batch<std::uint8_t>;
constexpr std::size_t kTile = 16;

// Lines [0, 16) of 16 bytes each, `from` + k * fromStride, to lines `to` + k * toStride holding their byte k.
// Each round interleaves line i with line i + 8: the bits of (line, byte) rotate left by one, four rounds swap them.
void transposeTile(const std::uint8_t* from, std::size_t fromStride, std::uint8_t* to, std::size_t toStride)
{
    Bytes v[kTile], t[kTile];
    for (std::size_t k = 0; k < kTile; ++k) v[k] = Bytes::load_unaligned(from + k * fromStride);
    for (int round = 0; round < 4; ++round) {
        for (std::size_t i = 0; i < kTile / 2; ++i) {
            t[2 * i] = xsimd::zip_lo(v[i], v[i + kTile / 2]);
            t[2 * i + 1] = xsimd::zip_hi(v[i], v[i + kTile / 2]);
        }
        for (std::size_t k = 0; k < kTile; ++k) v[k] = t[k];
    }
    for (std::size_t k = 0; k < kTile; ++k) v[k].store_unaligned(to + k * toStride);
}

// A `lines` x `length` byte matrix transposed, part of it: out[x * lines + l] = in[l * length + x] for l in [l0, l1),
// x in [x0, x1).
void transposeScalar(const std::uint8_t* in, std::size_t lines, std::size_t length, std::uint8_t* out, std::size_t l0,
                     std::size_t l1, std::size_t x0, std::size_t x1)
{
    for (std::size_t l = l0; l < l1; ++l)
        for (std::size_t x = x0; x < x1; ++x) out[x * lines + l] = in[l * length + x];
}

// The whole matrix: 16 x 16 tiles, the output's lines 16 at a time (each tile's stores stay in the cache), then
// the edges byte by byte.
void transposeMatrix(const std::uint8_t* in, std::size_t lines, std::size_t length, std::uint8_t* out)
{
    if constexpr (Bytes::size != kTile) return transposeScalar(in, lines, length, out, 0, lines, 0, length);
    const std::size_t lineTiles = lines / kTile * kTile, lengthTiles = length / kTile * kTile;
    for (std::size_t x = 0; x < lengthTiles; x += kTile)
        for (std::size_t l = 0; l < lineTiles; l += kTile)
            transposeTile(in + l * length + x, length, out + x * lines + l, lines);
    transposeScalar(in, lines, length, out, 0, lines, lengthTiles, length);
    transposeScalar(in, lines, length, out, lineTiles, lines, 0, lengthTiles);
}

} // namespace

void toColumnOrderScalar(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out)
{
    transposeScalar(in, rows, columns, out, 0, rows, 0, columns);
}

void toRowOrderScalar(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out)
{
    transposeScalar(in, columns, rows, out, 0, columns, 0, rows);
}

void toColumnOrder(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out)
{
    transposeMatrix(in, rows, columns, out);
}

void toRowOrder(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out)
{
    transposeMatrix(in, columns, rows, out); // column order is a columns x rows matrix
}

void blockToColumnOrder(const std::uint8_t* in, std::size_t bytes, std::size_t columns, std::uint8_t* out)
{
    const std::size_t rows = bytes / columns;
    toColumnOrder(in, rows, columns, out);
    std::memcpy(out + rows * columns, in + rows * columns, bytes - rows * columns);
}

void blockToRowOrder(const std::uint8_t* in, std::size_t bytes, std::size_t columns, std::uint8_t* out)
{
    const std::size_t rows = bytes / columns;
    toRowOrder(in, rows, columns, out);
    std::memcpy(out + rows * columns, in + rows * columns, bytes - rows * columns);
}

} // namespace lv::formats::mdf4
