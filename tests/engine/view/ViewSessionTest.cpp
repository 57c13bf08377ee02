// A recording opened for viewing: envelopes from the pyramid equal brute force over the reader's samples, the
// pyramid is saved beside the snapshot and served again on the next open without decoding.
#include "view/ViewSession.h"

#include "engine/cache/MemorySource.h"
#include "support/TestSupport.h"

#include <filesystem>
#include <gtest/gtest.h>

namespace lv::view {
namespace {

namespace fs = std::filesystem;

std::size_t totalBlocks(ViewSession& s)
{
    std::size_t n = 0;
    for (std::size_t c = 0; c < s.info().channels.size(); ++c) n += s.context().source->blocks(c).size();
    return n;
}

class ViewSessions : public ::testing::TestWithParam<const char*> {};

TEST_P(ViewSessions, PyramidEnvelopesMatchTheReaderAndThePyramidIsKept)
{
    test::TempDir snapshots;
    const std::string path = (test::testdata() / "mef3/legacy" / GetParam()).string();
    const ViewOptions options{"", snapshots.path().string(), nullptr, 64u << 20, 2};
    std::size_t blocks = 0;
    {
        auto opened = ViewSession::open(path, options);
        ASSERT_TRUE(opened.ok()) << opened.error().describe();
        ViewSession& s = **opened;
        blocks = totalBlocks(s);
        s.buildPyramid();
        s.scheduler().waitIdle();
        EXPECT_EQ(s.pyramid().builtBlocks(), blocks);
        EXPECT_EQ(s.cache().stats().entries, 0u); // built without filling the cache
        for (std::size_t c = 0; c < s.info().channels.size(); ++c) {
            const core::ChannelInfo& ch = s.info().channels[c];
            const std::size_t channels[] = {c};
            auto all = core::readRange(s.recording(), channels, {ch.start, ch.end}, {});
            ASSERT_TRUE(all.ok());
            for (std::size_t columns : {1u, 7u, 300u, 5000u}) {
                auto got = s.envelope(c, {ch.start, ch.end}, columns);
                ASSERT_TRUE(got.ok());
                cache::testing::expectAllChecked(*got); // the pyramid knows every block's NaN samples
                cache::testing::expectSame(*got,
                                           cache::testing::bruteForce(all->front().raw, s.context().source->blocks(c),
                                                                      0, ch.gridLength, columns));
            }
        }
        EXPECT_FALSE(s.pyramidFile().empty());
    }
    auto again = ViewSession::open(path, options);
    ASSERT_TRUE(again.ok());
    EXPECT_TRUE(fs::exists((*again)->pyramidFile()));
    (*again)->waitForPyramid();                           // read in the background
    EXPECT_EQ((*again)->pyramid().builtBlocks(), blocks); // from the file, before any decode
    EXPECT_EQ((*again)->cache().stats().misses, 0u);
}

INSTANTIATE_TEST_SUITE_P(Legacy, ViewSessions, ::testing::Values("nan_gap_long.mefd", "multi_segment.mefd"));

TEST(ViewSession, WithoutASnapshotFolderNoPyramidIsKept)
{
    auto opened = ViewSession::open((test::testdata() / "mef3/legacy/plain_single.mefd").string(), {});
    ASSERT_TRUE(opened.ok());
    EXPECT_TRUE((*opened)->pyramidFile().empty());
    EXPECT_TRUE((*opened)->savePyramid().ok());
}

TEST(ViewSession, ADeferredSnapshotCheckOpensFromTheSnapshotAndSeesTheChangeLater)
{
    test::TempDir dir, snapshots;
    const fs::path session = dir.path() / "s.mefd";
    fs::copy(test::testdata() / "mef3/legacy/multi_channel.mefd", session, fs::copy_options::recursive);
    ViewOptions options{"", snapshots.path().string(), nullptr, 16u << 20, 1};
    {
        auto first = ViewSession::open(session.string(), options); // writes the snapshot
        ASSERT_TRUE(first.ok()) << first.error().describe();
        EXPECT_EQ((*first)->checkOnDisk(), DiskCheck::Unchanged);
    }
    // A channel removed while the snapshot is kept: a deferred open still shows the snapshot's recording.
    const std::size_t channels = [&] {
        auto r = ViewSession::open(session.string(), options);
        return r.ok() ? (*r)->info().channels.size() : 0;
    }();
    ASSERT_GE(channels, 2u);
    fs::remove_all(session / "ch2.timd");
    options.deferSnapshotCheck = true;
    {
        auto deferred = ViewSession::open(session.string(), options);
        ASSERT_TRUE(deferred.ok()) << deferred.error().describe();
        EXPECT_EQ((*deferred)->info().channels.size(), channels); // unchecked: as the snapshot has it
        EXPECT_EQ((*deferred)->checkOnDisk(), DiskCheck::Changed);
    }
    options.deferSnapshotCheck = false; // what the GUI does then: open again, checked
    auto checked = ViewSession::open(session.string(), options);
    ASSERT_TRUE(checked.ok()) << checked.error().describe();
    EXPECT_EQ((*checked)->info().channels.size(), channels - 1);
    EXPECT_EQ((*checked)->checkOnDisk(), DiskCheck::Unchanged);
    // Without a snapshot folder there is nothing to compare with.
    auto plain = ViewSession::open(session.string(), {});
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ((*plain)->checkOnDisk(), DiskCheck::Unknown);
}

// One flipped bit in the compressed data of segment 1's block: decoding it for viewing checks its CRC, and the
// envelope shows that block as damaged (no data from it, neither decoded nor its stored extrema), never as samples.
TEST(ViewSession, ADamagedBlockIsShownAsDamagedNotAsData)
{
    test::TempDir dir;
    const fs::path session = dir.path() / "s.mefd";
    fs::copy(test::testdata() / "mef3/legacy/multi_segment.mefd", session, fs::copy_options::recursive);
    const fs::path tdat = session / "ch1.timd/ch1-000001.segd/ch1-000001.tdat";
    auto bytes = test::readBytes(tdat);
    bytes[1024 + 304 + 8] ^= 0x10; // the block's compressed data, after its 304-byte header
    test::writeBytes(tdat, bytes);

    auto opened = ViewSession::open(session.string(), {});
    ASSERT_TRUE(opened.ok()) << opened.error().describe();
    ViewSession& s = **opened;
    const core::ChannelInfo& ch = s.info().channels[0];
    const auto blocks = s.context().source->blocks(0);
    ASSERT_EQ(blocks.size(), 2u);
    cache::BlockCache plainCache(16u << 20); // a view without a damage list: the decode fails, naming the block
    const cache::ViewContext plain{s.context().source, &plainCache, 1, nullptr};
    auto failed = cache::fetchBlock(plain, 0, 1, {});
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().describe(), tdat.string() + ": RED block 0: CRC mismatch (at byte 1024)");

    auto got = s.envelope(0, {ch.start, ch.end}, 400); // 10 samples a column: every block decoded
    ASSERT_TRUE(got.ok()) << got.error().describe();
    const std::int64_t n = ch.gridLength;
    for (std::size_t c = 0; c < got->size(); ++c) {
        const std::int64_t first = static_cast<std::int64_t>(c) * n / 400;
        const std::int64_t end = static_cast<std::int64_t>(c + 1) * n / 400;
        EXPECT_EQ((*got)[c].hasDamage, end > blocks[1].first) << c;
        EXPECT_EQ((*got)[c].hasData, first < blocks[0].first + blocks[0].count) << c;
        EXPECT_FALSE((*got)[c].hasNaN) << c; // damaged, not NaN
    }
    EXPECT_EQ(s.damaged().takeMessages(),
              std::vector<std::string>{tdat.string() + ": RED block 0: CRC mismatch (at byte 1024); shown as damaged"});
    auto whole = s.envelope(0, {ch.start, ch.end}, 1); // whole blocks by stored extrema: block 1's are not used
    ASSERT_TRUE(whole.ok());
    EXPECT_TRUE(whole->front().hasDamage);
    EXPECT_EQ(whole->front().minimum, blocks[0].minimum);
    EXPECT_EQ(whole->front().maximum, blocks[0].maximum);
}

TEST(ViewSession, AMissingRecordingIsAnError)
{
    auto opened = ViewSession::open("/nonexistent/x.mefd", {});
    ASSERT_FALSE(opened.ok());
    EXPECT_NE(opened.error().describe().find("/nonexistent/x.mefd"), std::string::npos);
}

} // namespace
} // namespace lv::view
