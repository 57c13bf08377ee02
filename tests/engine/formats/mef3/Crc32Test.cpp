// The MEF CRC-32 against stored CRCs of reference files, its extension property, and the carry-less-multiply
// folding against the slicing-by-8 tables.
#include "support/TestSupport.h"

#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <random>

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

// Every length from 0 to 700 at each of 16 alignments, from two start values, then long buffers: the folding
// (64 bytes and up, 16 at a time, the rest by table) gives the tables' CRC.
TEST(Crc32, FoldingEqualsTablesOnEveryLengthAndAlignment)
{
    std::vector<std::uint8_t> data((1 << 20) + 64);
    std::mt19937 rng(11);
    for (auto& b : data) b = static_cast<std::uint8_t>(rng());
    const std::span<const std::uint8_t> all(data);
    for (std::size_t at = 0; at < 16; ++at)
        for (std::size_t n = 0; n <= 700; ++n)
            for (std::uint32_t start : {kCrcStart, 0x12345678u}) {
                const auto bytes = all.subspan(at, n);
                ASSERT_EQ(crc32UpdateFolding(start, bytes), crc32UpdateTables(start, bytes)) << at << " " << n;
            }
    for (std::size_t n : {4096u, 25600u + 5u, 65536u + 13u, 1u << 20})
        EXPECT_EQ(crc32UpdateFolding(kCrcStart, all.subspan(3, n)), crc32UpdateTables(kCrcStart, all.subspan(3, n)));
    std::printf("carry-less multiply %s here\n", crc32HasFolding() ? "used" : "not available");
}

// Both implementations reproduce the stored CRC of every RED block and every header of the reference sessions.
TEST(Crc32, FoldingAndTablesMatchEveryStoredCrcOfTheReferenceFiles)
{
    std::size_t checked = 0;
    for (const char* folder : {"mef3/meflib", "mef3/legacy"})
        for (const auto& e : std::filesystem::recursive_directory_iterator(test::testdata() / folder)) {
            if (!e.is_regular_file()) continue;
            const std::string ext = e.path().extension().string();
            if (ext != ".tdat" && ext != ".tidx" && ext != ".tmet") continue;
            const std::vector<std::uint8_t> bytes = test::readBytes(e.path());
            if (bytes.size() < 1024) continue;
            const auto header = std::span(bytes).subspan(4, 1020);
            EXPECT_EQ(crc32UpdateFolding(kCrcStart, header), core::le::u32(bytes, 0)) << e.path();
            EXPECT_EQ(crc32UpdateTables(kCrcStart, header), core::le::u32(bytes, 0)) << e.path();
            ++checked;
            if (ext != ".tdat") continue;
            for (std::size_t at = 1024; at + 304 <= bytes.size();) { // RED blocks: CRC of bytes 4 .. block_bytes
                const std::uint32_t blockBytes = core::le::u32(bytes, at + 36);
                if (blockBytes < 304 || at + blockBytes > bytes.size()) break;
                const auto block = std::span(bytes).subspan(at + 4, blockBytes - 4);
                EXPECT_EQ(crc32UpdateFolding(kCrcStart, block), core::le::u32(bytes, at)) << e.path() << " " << at;
                EXPECT_EQ(crc32UpdateTables(kCrcStart, block), core::le::u32(bytes, at)) << e.path() << " " << at;
                ++checked;
                at += blockBytes;
            }
        }
    EXPECT_GT(checked, 30u);
}

} // namespace
} // namespace lv::formats::mef3
