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

TEST(ViewSession, AMissingRecordingIsAnError)
{
    auto opened = ViewSession::open("/nonexistent/x.mefd", {});
    ASSERT_FALSE(opened.ok());
    EXPECT_NE(opened.error().describe().find("/nonexistent/x.mefd"), std::string::npos);
}

} // namespace
} // namespace lv::view
