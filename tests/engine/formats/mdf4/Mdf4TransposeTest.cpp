// DZ's transposition in SIMD tiles against the byte-by-byte definition, for shapes with and without edges.
#include "formats/mdf4/Mdf4Transpose.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <vector>

using namespace lv::formats::mdf4;

namespace {

std::vector<std::uint8_t> randomBytes(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::vector<std::uint8_t> v(n);
    for (std::uint8_t& b : v) b = static_cast<std::uint8_t>(rng());
    return v;
}

} // namespace

TEST(Mdf4Transpose, TilesEqualTheDefinitionForEveryShape)
{
    for (const std::size_t rows : {0, 1, 2, 15, 16, 17, 31, 48, 100, 257})
        for (const std::size_t columns : {1, 2, 3, 8, 15, 16, 17, 32, 33, 272}) {
            const auto in = randomBytes(rows * columns, static_cast<unsigned>(rows * 1000 + columns));
            std::vector<std::uint8_t> columnOrder(in.size(), 0xA5), back(in.size(), 0x5A);
            toColumnOrder(in.data(), rows, columns, columnOrder.data());
            for (std::size_t r = 0; r < rows; ++r)
                for (std::size_t c = 0; c < columns; ++c)
                    ASSERT_EQ(columnOrder[c * rows + r], in[r * columns + c])
                        << rows << " x " << columns << ", row " << r << ", column " << c;
            toRowOrder(columnOrder.data(), rows, columns, back.data());
            ASSERT_EQ(back, in) << rows << " x " << columns;
        }
}

TEST(Mdf4Transpose, SimdAndScalarAgreeOnADzBlock) // 4 MiB of 272-byte records, as the writer makes them
{
    const std::size_t columns = 272, rows = (std::size_t{4} << 20) / columns;
    const auto in = randomBytes(rows * columns, 7);
    std::vector<std::uint8_t> simd(in.size()), scalar(in.size());
    toColumnOrder(in.data(), rows, columns, simd.data());
    toColumnOrderScalar(in.data(), rows, columns, scalar.data());
    ASSERT_EQ(simd, scalar);
    std::vector<std::uint8_t> rowsSimd(in.size()), rowsScalar(in.size());
    toRowOrder(scalar.data(), rows, columns, rowsSimd.data());
    toRowOrderScalar(scalar.data(), rows, columns, rowsScalar.data());
    EXPECT_EQ(rowsSimd, rowsScalar);
    EXPECT_EQ(rowsSimd, in);
}

TEST(Mdf4Transpose, ABlockTransposesItsWholeRowsAndKeepsAPartialLastRow) // as DZ's transposition defines it
{
    const std::size_t columns = 24, bytes = 40 * columns + 7;
    const auto in = randomBytes(bytes, 11);
    std::vector<std::uint8_t> columnOrder(bytes), back(bytes);
    blockToColumnOrder(in.data(), bytes, columns, columnOrder.data());
    for (std::size_t r = 0; r < 40; ++r)
        for (std::size_t c = 0; c < columns; ++c) ASSERT_EQ(columnOrder[c * 40 + r], in[r * columns + c]);
    EXPECT_TRUE(std::equal(in.end() - 7, in.end(), columnOrder.end() - 7)); // the partial row as it is
    blockToRowOrder(columnOrder.data(), bytes, columns, back.data());
    EXPECT_EQ(back, in);
}
