// Atomic output: nothing at the target until commit, no temporary left behind on failure.
#include "io/AtomicFile.h"

#include "support/TestSupport.h"

#include <gtest/gtest.h>

#if !defined(_WIN32)
#include <csignal>
#include <sys/resource.h>
#endif

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

// Sizes around the 8 MiB pieces and the 4 KiB blocks of direct writes, written in uneven calls: every byte lands
// where it belongs, the file is cut to its size (not the padded block), on the page cache and direct alike.
TEST(AtomicFile, EveryByteAtItsPlaceWhateverTheSizesAndCalls)
{
    test::TempDir dir;
    constexpr std::size_t kMiB = std::size_t{1} << 20;
    for (std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4096}, 8 * kMiB - 1,
                             8 * kMiB, 8 * kMiB + 1, 20 * kMiB + 123}) {
        const fs::path target = dir.path() / ("out-" + std::to_string(size));
        std::string data(size, '\0');
        for (std::size_t i = 0; i < size; ++i) data[i] = static_cast<char>((i * 131 + size) % 251);
        AtomicFile f;
        ASSERT_TRUE(f.open(target.string()).ok());
        for (std::size_t at = 0, step = 1; at < size; at += step, step = step * 3 + 7)
            ASSERT_TRUE(f.write(std::string_view(data).substr(at, step)).ok());
        ASSERT_TRUE(f.commit().ok());
        const auto back = test::readBytes(target);
        ASSERT_EQ(back.size(), size) << "direct " << f.direct();
        EXPECT_TRUE(std::equal(back.begin(), back.end(), data.begin(),
                               [](std::uint8_t a, char b) { return a == static_cast<std::uint8_t>(b); }))
            << size << " direct " << f.direct();
    }
}

TEST(AtomicFile, AWriteAfterFinishIsRefused)
{
    test::TempDir dir;
    AtomicFile f;
    ASSERT_TRUE(f.open((dir.path() / "x").string()).ok());
    ASSERT_TRUE(f.finish().ok());
    EXPECT_FALSE(f.write("late").ok());
    EXPECT_TRUE(f.commit().ok());
    EXPECT_EQ(fs::file_size(dir.path() / "x"), 0u);
}

#if !defined(_WIN32)
// A piece written behind (on its own thread) that fails, here past a 12 MiB file size limit: the failure is returned
// by a later write or by finish, naming the target, and nothing is left behind.
TEST(AtomicFile, AFailedWriteBehindIsReturnedAndLeavesNothing)
{
    test::TempDir dir;
    const fs::path target = dir.path() / "big.csv";
    rlimit before{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
    rlimit limited = before;
    limited.rlim_cur = rlim_t{12} << 20;
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN); // the write then fails with EFBIG
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
    core::Status failed;
    {
        AtomicFile f;
        ASSERT_TRUE(f.open(target.string()).ok());
        const std::string mib(std::size_t{1} << 20, 'x');
        for (int i = 0; i < 30 && failed.ok(); ++i) failed = f.write(mib);
        if (failed.ok()) failed = f.finish();
    }
    setrlimit(RLIMIT_FSIZE, &before);
    std::signal(SIGXFSZ, oldHandler);
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().path, target.string());
    EXPECT_EQ(failed.error().message.rfind("cannot write the output: ", 0), 0u) << failed.error().message;
    EXPECT_TRUE(fs::is_empty(dir.path()));
}
#endif

} // namespace
} // namespace lv::io
