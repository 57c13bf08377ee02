// Atomic output: nothing at the target until commit, no temporary left behind on failure.
#include "io/AtomicFile.h"

#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::io {
namespace {

namespace fs = std::filesystem;

TEST(AtomicFile, AppearsOnlyOnCommit)
{
    test::TempDir dir;
    const fs::path target = dir.path() / "out.csv";
    {
        AtomicFile f;
        ASSERT_TRUE(f.open(target.string()).ok());
        ASSERT_TRUE(f.write("abc").ok());
        EXPECT_FALSE(fs::exists(target));
        ASSERT_TRUE(f.commit().ok());
    }
    EXPECT_EQ(test::readBytes(target), (std::vector<std::uint8_t>{'a', 'b', 'c'}));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(AtomicFile, AbandonedOutputLeavesNothing)
{
    test::TempDir dir;
    {
        AtomicFile f;
        ASSERT_TRUE(f.open((dir.path() / "out.csv").string()).ok());
        ASSERT_TRUE(f.write("partial").ok());
    }
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(AtomicFile, UnwritableDirectoryIsAnErrorNamingTheTarget)
{
    AtomicFile f;
    const core::Status s = f.open("/nonexistent-dir/out.csv");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().path, "/nonexistent-dir/out.csv");
    EXPECT_EQ(s.error().message, "cannot create a temporary file beside the output: No such file or directory");
}

} // namespace
} // namespace lv::io
