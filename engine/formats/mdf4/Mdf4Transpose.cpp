// Byte matrix transposition for DZ blocks: four rounds of byte interleaves transpose a 16 x 16 tile in registers.
#include "formats/mdf4/Mdf4Transpose.h"

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

// out[c * rows + r] = in[r * columns + c] for r in [r0, r1), c in [c0, c1).
void columnsScalar(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out, std::size_t r0,
                   std::size_t r1, std::size_t c0, std::size_t c1)
{
    for (std::size_t r = r0; r < r1; ++r)
        for (std::size_t c = c0; c < c1; ++c) out[c * rows + r] = in[r * columns + c];
}

void rowsScalar(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out, std::size_t r0,
                std::size_t r1, std::size_t c0, std::size_t c1)
{
    for (std::size_t c = c0; c < c1; ++c)
        for (std::size_t r = r0; r < r1; ++r) out[r * columns + c] = in[c * rows + r];
}

} // namespace

void toColumnOrderScalar(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out)
{
    columnsScalar(in, rows, columns, out, 0, rows, 0, columns);
}

void toRowOrderScalar(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out)
{
    rowsScalar(in, rows, columns, out, 0, rows, 0, columns);
}

void toColumnOrder(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out)
{
    if constexpr (Bytes::size != kTile) return toColumnOrderScalar(in, rows, columns, out);
    const std::size_t rowTiles = rows / kTile * kTile, columnTiles = columns / kTile * kTile;
    for (std::size_t c = 0; c < columnTiles; c += kTile) // a tile's lines are rows r.., its output columns c..
        for (std::size_t r = 0; r < rowTiles; r += kTile)
            transposeTile(in + r * columns + c, columns, out + c * rows + r, rows);
    columnsScalar(in, rows, columns, out, 0, rows, columnTiles, columns);
    columnsScalar(in, rows, columns, out, rowTiles, rows, 0, columnTiles);
}

void toRowOrder(const std::uint8_t* in, std::size_t rows, std::size_t columns, std::uint8_t* out)
{
    if constexpr (Bytes::size != kTile) return toRowOrderScalar(in, rows, columns, out);
    const std::size_t rowTiles = rows / kTile * kTile, columnTiles = columns / kTile * kTile;
    for (std::size_t r = 0; r < rowTiles; r += kTile) // a tile's lines are columns c.., its output rows r..
        for (std::size_t c = 0; c < columnTiles; c += kTile)
            transposeTile(in + c * rows + r, rows, out + r * columns + c, columns);
    rowsScalar(in, rows, columns, out, 0, rows, columnTiles, columns);
    rowsScalar(in, rows, columns, out, rowTiles, rows, 0, columnTiles);
}

} // namespace lv::formats::mdf4
