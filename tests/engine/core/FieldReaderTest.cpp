// FieldReader: fields inside the structure read as stored; the first field past its end is named by file offset.
#include "core/FieldReader.h"

#include <gtest/gtest.h>

#include <vector>

namespace lv::core {

TEST(FieldReader, ReadsLittleEndianFieldsInside)
{
    const std::vector<std::uint8_t> b{0x01, 0x02, 0x03, 0x04, 'a', 'b', 0, 'c', 0xff, 0xff};
    FieldReader f(b, "x.tidx", 1024);
    EXPECT_EQ(f.u32(0), 0x04030201u);
    EXPECT_EQ(f.u16(2), 0x0403u);
    EXPECT_EQ(f.text(4, 4), "ab");
    EXPECT_EQ(f.i8(8), -1);
    EXPECT_EQ((f.raw<2>(8)), (std::array<std::uint8_t, 2>{0xff, 0xff}));
    EXPECT_TRUE(f.ok());
    EXPECT_TRUE(f.status().ok());
}

TEST(FieldReader, TheFirstFieldPastTheEndIsTheErrorWithItsFileOffset)
{
    const std::vector<std::uint8_t> b(10, 0x7f);
    FieldReader f(b, "x.tidx", 1024);
    EXPECT_EQ(f.u32(6), 0x7f7f7f7fu); // ends exactly at the end
    EXPECT_EQ(f.i64(4), 0);           // 4 + 8 > 10: zero
    EXPECT_EQ(f.u32(200), 0u);        // a later overrun does not replace the first
    EXPECT_EQ(f.text(9, 4), "");
    EXPECT_FALSE(f.ok());
    const Status s = f.status();
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, ErrorCode::Truncated);
    EXPECT_EQ(s.error().describe(), "x.tidx: a 8-byte field lies past the end of its 10-byte structure (at byte 1028)");
}

TEST(FieldReader, AnOffsetNearTheTopOfTheAddressSpaceDoesNotWrap)
{
    const std::vector<std::uint8_t> b(16, 0);
    FieldReader f(b, "x");
    EXPECT_EQ(f.u64(static_cast<std::size_t>(-4)), 0u);
    EXPECT_FALSE(f.ok());
}

} // namespace lv::core
