// Temporaries: named with the pid, locked while alive, swept when dead; moves that never replace a target.
#include "io/Temporary.h"

#include "support/TestSupport.h"

#include <fcntl.h>
#include <fstream>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

namespace lv::io {
namespace {

namespace fs = std::filesystem;

void writeText(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// Writes `text` at the start of an open temporary through its own handle.
void writeThrough(lv::io::NativeFile& file, const std::string& text)
{
    std::size_t done = 0;
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
    ASSERT_TRUE(file.writeAt(0, {bytes, text.size()}, done).ok());
    ASSERT_EQ(done, text.size());
}

std::string readText(const fs::path& path)
{
    const auto bytes = test::readBytes(path);
    return {bytes.begin(), bytes.end()};
}

TEST(Temporary, NamedAfterTheTargetAndThePidAndGoneUnlessPublished)
{
    test::TempDir dir;
    const std::string target = (dir.path() / "out.csv").string();
    std::string path;
    {
        auto t = Temporary::create(target, Temporary::Kind::File);
        ASSERT_TRUE(t.ok()) << t.error().describe();
        path = t->path();
        EXPECT_EQ(path.rfind(target + ".tmp-" + std::to_string(::getpid()) + "-", 0), 0u) << path;
        EXPECT_TRUE(fs::is_regular_file(path));
    }
    EXPECT_FALSE(fs::exists(path));
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(Temporary, ALiveTemporaryIsNeverSweptADeadOneIs)
{
    test::TempDir dir;
    const std::string target = (dir.path() / "out.edf").string();
    auto live = Temporary::create(target, Temporary::Kind::File);
    ASSERT_TRUE(live.ok());
    auto liveDir = Temporary::create(target, Temporary::Kind::Directory);
    ASSERT_TRUE(liveDir.ok());
    // What killed writers left: nobody holds their lock (a pid that may even be alive, like ours).
    writeText(target + ".tmp-" + std::to_string(::getpid()) + "-999", "partial");
    fs::create_directories(target + ".tmp-1-0/inner");
    writeText(target + ".tmp-1-0/inner/x", "partial");
    // Not temporaries of this target: another user's name pattern, another target's temporary.
    writeText(target + ".tmp-abc", "keep");
    writeText(target + ".tmp-1-2.edf", "keep");
    removeDeadTemporaries(target);
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir.path())) left.push_back(e.path().string());
    std::sort(left.begin(), left.end());
    std::vector<std::string> expected{live->path(), liveDir->path(), target + ".tmp-1-2.edf", target + ".tmp-abc"};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(left, expected);
}

TEST(Temporary, CreateSweepsTheDeadOnesOfItsTarget)
{
    test::TempDir dir;
    const std::string target = (dir.path() / "s.mefd.tar").string();
    writeText(target + ".tmp-4194999-0", "what a kill -9 left");
    auto t = Temporary::create(target, Temporary::Kind::File);
    ASSERT_TRUE(t.ok());
    EXPECT_FALSE(fs::exists(target + ".tmp-4194999-0"));
}

TEST(Temporary, PublishRefusesAnExistingTargetAndKeepsIt)
{
    test::TempDir dir;
    const std::string target = (dir.path() / "out.csv").string();
    auto t = Temporary::create(target, Temporary::Kind::File);
    ASSERT_TRUE(t.ok());
    writeThrough(t->file(), "mine");
    writeText(target, "theirs");
    const core::Status s = t->publish(target);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().describe(), target + ": the output already exists; choose a new name");
    EXPECT_EQ(readText(target), "theirs");
    t->drop();
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(Temporary, PublishMovesTheFileAndReleasesIt)
{
    test::TempDir dir;
    const std::string target = (dir.path() / "out.csv").string();
    auto t = Temporary::create(target, Temporary::Kind::File);
    ASSERT_TRUE(t.ok());
    writeThrough(t->file(), "mine");
    ASSERT_TRUE(t->publish(target).ok());
    EXPECT_FALSE(t->file().isOpen());
    t->drop(); // nothing left to remove
    EXPECT_EQ(readText(target), "mine");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(Temporary, RenameNoReplaceRefusesEvenAnEmptyDirectory)
{
    test::TempDir dir;
    const fs::path from = dir.path() / "a.mefd.tmp-1-0", to = dir.path() / "a.mefd";
    fs::create_directories(from / "x.timd");
    fs::create_directories(to); // rename(2) would replace an empty directory
    const core::Status s = renameNoReplace(from.string(), to.string());
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().describe(), to.string() + ": the output already exists; choose a new name");
    EXPECT_TRUE(fs::is_empty(to));
    fs::remove(to);
    ASSERT_TRUE(renameNoReplace(from.string(), to.string()).ok());
    EXPECT_TRUE(fs::is_directory(to / "x.timd"));
    EXPECT_FALSE(fs::exists(from));
}

TEST(Temporary, LinkNoReplaceIsTheFallbackForFiles)
{
    test::TempDir dir;
    const fs::path from = dir.path() / "out.csv.tmp-1-0", to = dir.path() / "out.csv";
    writeText(from, "new");
    writeText(to, "old");
    const core::Status s = linkNoReplace(from.string(), to.string());
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().describe(), to.string() + ": the output already exists; choose a new name");
    EXPECT_EQ(readText(to), "old");
    fs::remove(to);
    ASSERT_TRUE(linkNoReplace(from.string(), to.string()).ok());
    EXPECT_EQ(readText(to), "new");
    EXPECT_FALSE(fs::exists(from));
}

} // namespace
} // namespace lv::io
