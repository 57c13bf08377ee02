// Our archives: the same bytes for the same tree, GNU tar extracts them unchanged, and unsafe members are refused.
#include "io/TarWriter.h"

#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>

namespace lv::io {
namespace {

namespace fs = std::filesystem;

TEST(TarWriter, DeterministicAndGnuTarExtractsIt)
{
    test::TempDir dir;
    const fs::path session = test::testdata() / "mef3/legacy/multi_segment.mefd";
    ASSERT_TRUE(writeTar(session.string(), (dir.path() / "a.tar").string()).ok());
    ASSERT_TRUE(writeTar(session.string() + "/", (dir.path() / "b.tar").string()).ok());
    EXPECT_EQ(test::readBytes(dir.path() / "a.tar"), test::readBytes(dir.path() / "b.tar"));
    fs::create_directories(dir.path() / "gnu");
    ASSERT_EQ(test::run("tar -C " + (dir.path() / "gnu").string() + " -xf " + (dir.path() / "a.tar").string()), 0);
    std::string out;
    EXPECT_EQ(test::run("diff -r " + session.string() + " " + (dir.path() / "gnu/multi_segment.mefd").string(), &out),
              0)
        << out;
}

TEST(TarWriter, ExtractRoundTripAndRefusesToOverwrite)
{
    test::TempDir dir;
    const fs::path session = test::testdata() / "mef3/legacy/with_annotations.mefd";
    const fs::path tar = dir.path() / "s.mefd.tar";
    ASSERT_TRUE(writeTar(session.string(), tar.string()).ok());
    ASSERT_TRUE(extractTar(tar.string(), (dir.path() / "x").string()).ok());
    for (const auto& e : fs::recursive_directory_iterator(session)) {
        if (!e.is_regular_file()) continue;
        EXPECT_EQ(test::readBytes(e.path()),
                  test::readBytes(dir.path() / "x/with_annotations.mefd" / fs::relative(e.path(), session)));
    }
    const core::Status again = extractTar(tar.string(), (dir.path() / "x").string());
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().describe(),
              (dir.path() / "x/with_annotations.mefd").string() + ": already exists; extract elsewhere");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path() / "x"), fs::directory_iterator()), 1);
}

TEST(TarWriter, MembersOutsideTheTargetAreRefused)
{
    test::TempDir dir;
    fs::create_directories(dir.path() / "src");
    std::ofstream(dir.path() / "evil") << "x";
    const fs::path tar = dir.path() / "evil.tar";
    ASSERT_EQ(test::run("tar -C " + (dir.path() / "src").string() + " -P -cf " + tar.string() + " ../evil 2>/dev/null"),
              0); // -P keeps the ../
    const core::Status s = extractTar(tar.string(), (dir.path() / "out").string());
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, "member \"../evil\" would land outside the target");
}

} // namespace
} // namespace lv::io
