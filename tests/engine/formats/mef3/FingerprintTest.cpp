// Session fingerprints: channel folders whose times vouch for their entries are not listed again (only their files
// and last segment are looked at); younger folders are, and an entry change always shows.
#include "formats/mef3/Fingerprint.h"

#include "formats/mef3/SessionLayout.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;
constexpr std::int64_t kHourNs = 3'600'000'000'000;

struct Fingerprints : ::testing::Test {
    test::TempDir dir;
    fs::path session = dir.path() / "multi_segment.mefd";
    fs::path channel = session / "ch1.timd";
    Fingerprint then;
    void SetUp() override
    {
        test::copyTree(test::testdata() / "mef3/legacy/multi_segment.mefd", session);
        auto layout = discoverSession(session.string());
        ASSERT_TRUE(layout.ok());
        auto f = takeFingerprint(*layout);
        ASSERT_TRUE(f.ok());
        then = *f;
        ASSERT_EQ(then.channels.size(), 1u);
    }
    // `then` as if it had been taken an hour after its folders last changed.
    Fingerprint settled() const
    {
        Fingerprint f = then;
        for (ChannelStamp& c : f.channels) c.stampedAtNs += kHourNs;
        return f;
    }
};

TEST_F(Fingerprints, YoungFoldersAreListedAgain)
{
    EXPECT_TRUE(recheckFingerprint(then).check.fresh());
    Fingerprint wrongNames = then;
    wrongNames.channels[0].namesHash ^= 1;
    EXPECT_EQ(recheckFingerprint(wrongNames).check.changedChannels, std::vector<std::size_t>{0});
}

TEST_F(Fingerprints, SettledFoldersAreCheckedByTheirTimesFilesAndLastSegment)
{
    Fingerprint f = settled();
    f.channels[0].namesHash ^= 1; // not looked at: the folder's times vouch for its names
    EXPECT_TRUE(recheckFingerprint(f).check.fresh());
    const fs::path tdat = channel / "ch1-000001.segd/ch1-000001.tdat";
    const auto time = fs::last_write_time(tdat);
    auto bytes = test::readBytes(tdat);
    bytes.push_back(0);
    test::writeBytes(tdat, bytes);
    fs::last_write_time(tdat, time);
    const Recheck recheck = recheckFingerprint(settled());
    EXPECT_EQ(recheck.check.changedChannels, std::vector<std::size_t>{0});
    EXPECT_EQ(recheck.now.channels[0].namesHash, then.channels[0].namesHash); // still not listed
}

TEST_F(Fingerprints, AnEntryChangeShowsEvenWithItsFolderTimeSetBack)
{
    const auto time = fs::last_write_time(channel);
    fs::remove_all(channel / "ch1-000000.segd");
    fs::last_write_time(channel, time); // the status-change time cannot be set back
    const Recheck recheck = recheckFingerprint(settled());
    EXPECT_EQ(recheck.check.changedChannels, std::vector<std::size_t>{0});
    EXPECT_NE(recheck.now.channels[0].namesHash, then.channels[0].namesHash); // listed again
}

} // namespace
} // namespace lv::formats::mef3
