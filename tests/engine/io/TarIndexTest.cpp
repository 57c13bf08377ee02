// Tar indexing: member byte ranges for ustar, GNU long names and pax paths; damage is an error.
#include "io/TarIndex.h"
#include "io/FileTree.h"

#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>

namespace lv::io {
namespace {

namespace fs = std::filesystem;

class TarFormats : public ::testing::TestWithParam<const char*> {};

TEST_P(TarFormats, MembersPointAtTheirBytes)
{
    test::TempDir dir;
    const std::string longName(150, 'n');
    fs::create_directories(dir.path() / "root.mefd" / "a.timd");
    std::ofstream(dir.path() / "root.mefd" / "a.timd" / "short.bin") << "hello";
    const bool longNames = std::string(GetParam()) != "ustar"; // ustar cannot hold a 150-character name
    if (longNames) std::ofstream(dir.path() / "root.mefd" / longName) << "long name content";
    const fs::path tar = dir.path() / "x.tar";
    ASSERT_EQ(test::run("tar --format=" + std::string(GetParam()) + " -C " + dir.path().string() + " -cf " +
                        tar.string() + " root.mefd"),
              0);
    auto tree = openTarTree(tar.string());
    ASSERT_TRUE(tree.ok()) << tree.error().describe();
    auto top = (*tree)->list("root.mefd");
    ASSERT_TRUE(top.ok());
    ASSERT_EQ(top->size(), longNames ? 2u : 1u);
    auto source = (*tree)->open("root.mefd/a.timd/short.bin");
    ASSERT_TRUE(source.ok());
    auto bytes = (*source)->readAll();
    EXPECT_EQ(std::string(bytes->begin(), bytes->end()), "hello");
    if (longNames) {
        auto named = (*tree)->open("root.mefd/" + longName);
        ASSERT_TRUE(named.ok()) << named.error().describe();
        EXPECT_EQ((*named)->size(), 17u);
    }
    EXPECT_EQ((*tree)->open("root.mefd/missing").error().code, core::ErrorCode::NotFound);
}

INSTANTIATE_TEST_SUITE_P(All, TarFormats, ::testing::Values("ustar", "gnu", "pax"));

// Headers are read through a window of the archive: an archive many windows long, with members of sizes that put
// An archive of many 64 KiB read-ahead ranges, with members of sizes that put headers at every distance from a
// range's edge, gives every member's exact bytes.
TEST(TarIndex, ManyMembersAcrossReadAheadRanges)
{
    test::TempDir dir;
    const fs::path root = dir.path() / "s.mefd";
    fs::create_directories(root);
    std::vector<std::size_t> sizes;
    for (std::size_t k = 0; k < 120; ++k) sizes.push_back((k * 7919 + k * k * 131) % 90'000);
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        std::string content(sizes[k], '\0');
        for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>('a' + (i * 31 + k) % 26);
        std::ofstream(root / ("m" + std::to_string(1000 + k)), std::ios::binary) << content;
    }
    const fs::path tar = dir.path() / "s.tar";
    ASSERT_EQ(test::run("tar --format=gnu -C " + dir.path().string() + " -cf " + tar.string() + " s.mefd"), 0);
    ASSERT_GT(fs::file_size(tar), 40u * 64 * 1024);
    auto tree = openTarTree(tar.string());
    ASSERT_TRUE(tree.ok()) << tree.error().describe();
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        const std::string name = "s.mefd/m" + std::to_string(1000 + k);
        auto source = (*tree)->open(name);
        ASSERT_TRUE(source.ok()) << name;
        auto bytes = (*source)->readAll();
        ASSERT_TRUE(bytes.ok());
        ASSERT_EQ(bytes->size(), sizes[k]) << name;
        for (std::size_t i = 0; i < bytes->size(); ++i)
            ASSERT_EQ((*bytes)[i], static_cast<std::uint8_t>('a' + (i * 31 + k) % 26)) << name << " byte " << i;
    }
}

// One 512-byte header block with a correct checksum.
std::vector<std::uint8_t> tarHeader(const std::string& name, char type, std::size_t size)
{
    std::vector<std::uint8_t> h(512, 0);
    std::copy(name.begin(), name.end(), h.begin());
    char field[16];
    std::snprintf(field, sizeof field, "%011o", static_cast<unsigned>(size));
    std::copy(field, field + 11, h.begin() + 124);
    h[156] = static_cast<std::uint8_t>(type);
    std::fill(h.begin() + 148, h.begin() + 156, ' ');
    unsigned sum = 0;
    for (auto b : h) sum += b;
    std::snprintf(field, sizeof field, "%06o", sum);
    std::copy(field, field + 7, h.begin() + 148);
    return h;
}

// A pax record whose length is shorter than its own digits (found by fuzzing) is ignored, not a crash.
TEST(TarIndex, MalformedPaxRecordIsIgnored)
{
    std::vector<std::uint8_t> tar = tarHeader("pax", 'x', 4);
    const std::string records = "1 x\n";
    std::vector<std::uint8_t> data(512, 0);
    std::copy(records.begin(), records.end(), data.begin());
    tar.insert(tar.end(), data.begin(), data.end());
    const auto file = tarHeader("s.mefd/a", '0', 0);
    tar.insert(tar.end(), file.begin(), file.end());
    tar.resize(tar.size() + 1024, 0);
    auto r = indexTar(*memorySource(tar, "p.tar"));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ(r->size(), 1u);
    EXPECT_EQ((*r)[0].path, "s.mefd/a");
}

// Three members a, b, c of one data block each, then `tail` (the end marker and what follows it).
std::vector<std::uint8_t> threeMembers(const std::vector<std::uint8_t>& tail)
{
    std::vector<std::uint8_t> tar;
    for (const char* name : {"s.mefd/a", "s.mefd/b", "s.mefd/c"}) {
        const auto h = tarHeader(name, '0', 5);
        tar.insert(tar.end(), h.begin(), h.end());
        std::vector<std::uint8_t> data(512, 0);
        std::fill(data.begin(), data.begin() + 5, static_cast<std::uint8_t>(name[7]));
        tar.insert(tar.end(), data.begin(), data.end());
    }
    tar.insert(tar.end(), tail.begin(), tail.end());
    return tar;
}

// Two zero blocks padded with zeros to a 10,240-byte record (GNU tar), or a lone zero block, end the archive.
TEST(TarIndex, ZerosToTheEndOfTheFileEndTheArchive)
{
    for (const std::size_t zeros : {512u, 1024u, 10240u - 6 * 512u, 20000u}) {
        auto r = indexTar(*memorySource(threeMembers(std::vector<std::uint8_t>(zeros, 0)), "e.tar"));
        ASSERT_TRUE(r.ok()) << r.error().describe();
        EXPECT_EQ(r->size(), 3u) << zeros;
    }
}

// A zeroed header followed by further members is damage, not the end: member b's header zeroed would otherwise drop
// b and c in silence.
TEST(TarIndex, AZeroedHeaderBeforeOtherMembersIsDamage)
{
    auto tar = threeMembers(std::vector<std::uint8_t>(1024, 0));
    std::fill(tar.begin() + 1024, tar.begin() + 1536, 0); // b's header
    auto r = indexTar(*memorySource(tar, "z.tar"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(r.error().describe(),
              "z.tar: tar header is all zeros, but a member header follows at byte 2048 (at byte 1024)");
}

TEST(TarIndex, DataAfterTheEndMarkerIsDamage)
{
    std::vector<std::uint8_t> tail(1024 + 512, 0);
    tail[1024 + 17] = 0x5A; // in the block after the two zero blocks
    auto r = indexTar(*memorySource(threeMembers(tail), "d.tar"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().describe(), "d.tar: tar archive has data after its end marker (at byte 4096) (at byte 3072)");
    tail.assign(1024 + 100, 0);
    tail.back() = 1; // in a partial last block
    r = indexTar(*memorySource(threeMembers(tail), "p.tar"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().describe(), "p.tar: tar archive has data after its end marker (at byte 4096) (at byte 3072)");
}

TEST(TarIndex, TruncatedArchiveIsAnError)
{
    std::vector<std::uint8_t> header(512, 0);
    const std::string name = "file";
    std::copy(name.begin(), name.end(), header.begin());
    const std::string size = "00000001000"; // 512 bytes of data announced, none present
    std::copy(size.begin(), size.end(), header.begin() + 124);
    header[156] = '0';
    std::fill(header.begin() + 148, header.begin() + 156, ' ');
    unsigned sum = 0;
    for (auto b : header) sum += b;
    char chk[8];
    std::snprintf(chk, sizeof chk, "%06o", sum);
    std::copy(chk, chk + 7, header.begin() + 148);
    auto r = indexTar(*memorySource(header, "t.tar"));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().describe(), "t.tar: tar member extends past the end of the archive (at byte 0)");
}

} // namespace
} // namespace lv::io
