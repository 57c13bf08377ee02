// The MEF CRC-32 against stored CRCs of reference files, and its extension property.
#include "support/TestSupport.h"

#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

TEST(Crc32, MatchesStoredHeaderAndBodyCrcs)
{
    const auto file = test::testdata() / "mef3/meflib/meflib_rto.mefd/LA1.timd/LA1-000000.segd/LA1-000000.tidx";
    const std::vector<std::uint8_t> bytes = test::readBytes(file);
    ASSERT_GT(bytes.size(), 1024u);
    EXPECT_EQ(crc32(std::span(bytes).subspan(4, 1020)), core::le::u32(bytes, 0));
    EXPECT_EQ(crc32(std::span(bytes).subspan(1024)), core::le::u32(bytes, 4));
}

TEST(Crc32, ExtendsOverAppendedBytes)
{
    std::vector<std::uint8_t> data(1000);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::uint8_t>(i * 7 + 3);
    const std::span<const std::uint8_t> all(data);
    EXPECT_EQ(crc32Update(crc32(all.first(333)), all.subspan(333)), crc32(all));
    EXPECT_EQ(crc32({}), kCrcStart);
}

} // namespace
} // namespace lv::formats::mef3
