// The platform layer (NativeFile, FileSystem, MemoryPages) on this system: non-ASCII names end to end, positioned
// transfers, stat, listing, no-replace moves, the sweep of abandoned temporaries and discarded pages.
#include "io/ByteSource.h"
#include "io/FileSystem.h"
#include "io/MemoryPages.h"
#include "io/NativeFile.h"
#include "io/Path.h"
#include "io/WritableFile.h"

#include "support/TestSupport.h"

#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <set>

using namespace lv::io;
namespace fs = std::filesystem;

namespace {

const std::string kName = "\xc3\x84rger \xc3\xbc \xe6\xb3\xa2.edf"; // "Ärger ü 波.edf" in UTF-8

std::span<const std::uint8_t> bytesOf(const std::string& s)
{
    return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

} // namespace

TEST(Platform, ANonAsciiNameIsWrittenReadListedAndStattedUnderItsOwnName)
{
    lv::test::TempDir dir;
    const std::string path = toUtf8(dir.path()) + "/" + kName;
    auto out = WritableFile::create(path);
    ASSERT_TRUE(out.ok()) << out.error().describe();
    ASSERT_TRUE(out->writeAt(3, bytesOf("tail")).ok());
    ASSERT_TRUE(out->writeAt(0, bytesOf("abc")).ok());
    ASSERT_TRUE(out->close().ok());

    auto in = readFile(path);
    ASSERT_TRUE(in.ok()) << in.error().describe();
    EXPECT_EQ(std::string(in->begin(), in->end()), "abctail");

    FileStatus st;
    ASSERT_TRUE(statPath(toPath(path), st).ok());
    EXPECT_EQ(st.kind, FileStatus::Kind::Regular);
    EXPECT_EQ(st.size, 7u);
    EXPECT_NE(st.fileId, 0u);

    std::set<std::string> names;
    ASSERT_TRUE(forEachEntry(dir.path(), [&](std::string_view name, bool isDirectory) {
                    EXPECT_FALSE(isDirectory);
                    names.emplace(name);
                    return true;
                }).ok());
    EXPECT_EQ(names, std::set<std::string>{kName});
}

TEST(Platform, AMissingFileIsNotFoundInTheSystemsWords)
{
    lv::test::TempDir dir;
    NativeFile f;
    const SystemError e = f.open(dir.path() / "absent", NativeFile::Mode::Read);
    EXPECT_EQ(e.kind, SystemError::Kind::NotFound);
    EXPECT_FALSE(e.text.empty());
    auto source = openFile(toUtf8(dir.path() / "absent"));
    ASSERT_FALSE(source.ok());
    EXPECT_EQ(source.error().code, lv::core::ErrorCode::NotFound);
}

TEST(Platform, ReadsStopAtTheEndOfTheFileAndSayHowFarTheyGot)
{
    lv::test::TempDir dir;
    NativeFile f;
    ASSERT_TRUE(f.open(dir.path() / "f", NativeFile::Mode::CreateNew).ok());
    std::size_t done = 0;
    ASSERT_TRUE(f.writeAt(0, bytesOf("0123456789"), done).ok());
    std::uint8_t buffer[8] = {};
    ASSERT_TRUE(f.readAt(6, buffer, done).ok());
    EXPECT_EQ(done, 4u);
    EXPECT_EQ(std::memcmp(buffer, "6789", 4), 0);
    ASSERT_TRUE(f.truncate(3).ok());
    std::uint64_t size = 0;
    ASSERT_TRUE(f.size(size).ok());
    EXPECT_EQ(size, 3u);
    NativeFile again;
    EXPECT_EQ(again.open(dir.path() / "f", NativeFile::Mode::CreateNew).kind, SystemError::Kind::Exists);
}

TEST(Platform, MoveNoReplaceNeverOverwrites)
{
    lv::test::TempDir dir;
    std::ofstream(dir.path() / "a") << "a";
    std::ofstream(dir.path() / "b") << "b";
    const SystemError e = moveNoReplace(dir.path() / "a", dir.path() / "b");
    if (e.kind == SystemError::Kind::Unsupported) GTEST_SKIP() << "no atomic no-replace move here: " << e.text;
    EXPECT_EQ(e.kind, SystemError::Kind::Exists);
    std::ifstream b(dir.path() / "b");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(b), {}), "b");
    ASSERT_TRUE(moveNoReplace(dir.path() / "a", dir.path() / "c").ok());
    EXPECT_FALSE(fs::exists(dir.path() / "a"));
}

TEST(Platform, OnlyAnAbandonedTemporaryIsSwept)
{
    lv::test::TempDir dir;
    NativeFile held;
    ASSERT_TRUE(held.open(dir.path() / "held", NativeFile::Mode::CreateNew).ok());
    ASSERT_TRUE(held.lockExclusive(true));
    std::ofstream(dir.path() / "left") << "x";
    fs::create_directory(dir.path() / "folder");
    std::ofstream(dir.path() / "folder" / "inside") << "x";
    removeIfAbandoned(dir.path() / "held");
    removeIfAbandoned(dir.path() / "left");
    removeIfAbandoned(dir.path() / "folder");
    EXPECT_TRUE(fs::exists(dir.path() / "held"));
    EXPECT_FALSE(fs::exists(dir.path() / "left"));
    EXPECT_FALSE(fs::exists(dir.path() / "folder"));
}

TEST(Platform, DiscardedPagesStayUsableAndComeBackZeroed)
{
    const std::size_t bytes = 4 * pageSize();
    auto* p = static_cast<unsigned char*>(allocatePages(bytes));
    ASSERT_NE(p, nullptr);
    std::memset(p, 0xab, bytes);
    discardPages(p + pageSize(), pageSize());
    EXPECT_EQ(p[0], 0xab);
    EXPECT_EQ(p[pageSize()], 0);
    EXPECT_EQ(p[2 * pageSize() - 1], 0);
    EXPECT_EQ(p[2 * pageSize()], 0xab);
    p[pageSize()] = 1;
    EXPECT_EQ(p[pageSize()], 1);
    freePages(p, bytes);
    EXPECT_GT(physicalMemoryBytes(), std::uint64_t{1} << 28);
}
