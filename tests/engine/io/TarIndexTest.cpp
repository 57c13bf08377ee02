// Tar indexing: member byte ranges for ustar, GNU long names and pax paths; damage is an error.
#include "io/FileTree.h"
#include "io/TarIndex.h"

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
    ASSERT_EQ(test::run("tar --format=" + std::string(GetParam()) + " -C " + dir.path().string() + " -cf " + tar.string() + " root.mefd"), 0);
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
