// LargeArray: zeroed, writable, moved without copying, from pages or from the heap by size.
#include "io/LargeArray.h"

#include <gtest/gtest.h>

using lv::io::LargeArray;

namespace {

void expectZeroedAndWritable(LargeArray<double>& a, std::size_t n)
{
    ASSERT_EQ(a.size(), n);
    ASSERT_NE(a.data(), nullptr);
    for (std::size_t i = 0; i < n; i += 4093) EXPECT_EQ(a[i], 0.0) << i;
    EXPECT_EQ(a[n - 1], 0.0);
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<double>(i);
    double sum = 0;
    for (double v : a.span()) sum += v;
    EXPECT_EQ(sum, static_cast<double>(n) * static_cast<double>(n - 1) / 2);
}

} // namespace

TEST(LargeArray, SmallArraysComeZeroedFromTheHeap) // under one huge page
{
    LargeArray<double> a(1000);
    expectZeroedAndWritable(a, 1000);
}

TEST(LargeArray, LargeArraysComeZeroedFromPages) // 24 MB, not a multiple of the page size
{
    const std::size_t n = 3'000'001;
    LargeArray<double> a(n);
    expectZeroedAndWritable(a, n);
}

TEST(LargeArray, MovingHandsOverTheValues)
{
    LargeArray<double> a(std::size_t{1} << 20);
    a[12345] = 6.5;
    const double* at = a.data();
    LargeArray<double> b(std::move(a));
    EXPECT_EQ(b.data(), at);
    EXPECT_EQ(b[12345], 6.5);
    LargeArray<double> c(10);
    c = std::move(b);
    EXPECT_EQ(c.size(), std::size_t{1} << 20);
    EXPECT_EQ(c[12345], 6.5);
    EXPECT_EQ(LargeArray<double>().size(), 0u);
}
