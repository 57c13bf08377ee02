// A .mefd.tar archive (made with GNU tar) reads in place exactly like the directory it holds.
#include "support/TestSupport.h"

#include "core/Recording.h"
#include "formats/mef3/MefRecording.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;

std::vector<std::int32_t> readChannel(core::Recording& r, std::size_t channel)
{
    const std::size_t channels[] = {channel};
    auto got = core::readRange(r, channels, {r.info().start, r.info().end}, {});
    EXPECT_TRUE(got.ok()) << got.error().describe();
    return got.ok() ? got->front().raw : std::vector<std::int32_t>{};
}

class Archive : public ::testing::TestWithParam<const char*> {};

TEST_P(Archive, ReadsLikeTheDirectory)
{
    test::TempDir dir;
    const fs::path source = test::testdata() / "mef3/meflib";
    const fs::path tar = dir.path() / "meflib_rto.mefd.tar";
    ASSERT_EQ(test::run("tar --format=" + std::string(GetParam()) + " -C " + source.string() + " -cf " + tar.string() +
                        " meflib_rto.mefd"),
              0);
    auto fromDir = openMef3((source / "meflib_rto.mefd").string(), {});
    auto fromTar = openMef3(tar.string(), {});
    ASSERT_TRUE(fromDir.ok());
    ASSERT_TRUE(fromTar.ok()) << fromTar.error().describe();
    const auto& a = (*fromDir)->info();
    const auto& b = (*fromTar)->info();
    ASSERT_EQ(a.channels.size(), b.channels.size());
    EXPECT_EQ(a.start, b.start);
    for (std::size_t c = 0; c < a.channels.size(); ++c) {
        EXPECT_EQ(a.channels[c].name, b.channels[c].name);
        EXPECT_EQ(a.channels[c].gaps, b.channels[c].gaps);
        EXPECT_EQ(readChannel(**fromDir, c), readChannel(**fromTar, c));
    }
}

INSTANTIATE_TEST_SUITE_P(Formats, Archive, ::testing::Values("ustar", "gnu", "pax"));

TEST(ArchiveErrors, CorruptHeaderNamesTheArchiveAndOffset)
{
    test::TempDir dir;
    const fs::path tar = dir.path() / "s.mefd.tar";
    ASSERT_EQ(test::run("tar --format=ustar -C " + (test::testdata() / "mef3/legacy").string() + " -cf " +
                        tar.string() + " plain_single.mefd"),
              0);
    auto bytes = test::readBytes(tar);
    bytes[512 + 124] ^= 0x04; // size field of the second member header (the first is the directory)
    test::writeBytes(tar, bytes);
    auto r = openMef3(tar.string(), {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().describe(), tar.string() + ": tar header checksum mismatch (at byte 512)");
}

} // namespace
} // namespace lv::formats::mef3
