// Session discovery: a single .timd channel path, video channels skipped with a warning, empty sessions.
#include "support/TestSupport.h"

#include "formats/mef3/MefRecording.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;

TEST(SessionLayout, SingleChannelPathOpensThatChannel)
{
    auto r = openMef3((test::testdata() / "mef3/meflib/meflib_rto.mefd/LA2.timd").string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ((*r)->info().channels.size(), 1u);
    EXPECT_EQ((*r)->info().channels[0].name, "LA2");
    EXPECT_EQ((*r)->info().start, 1704103200000000);
}

TEST(SessionLayout, VideoChannelsAreSkippedWithAWarning)
{
    test::TempDir dir;
    const fs::path session = dir.path() / "v.mefd";
    test::copyTree(test::testdata() / "mef3/legacy/plain_single.mefd", session);
    fs::create_directories(session / "cam.vidd" / "cam-000000.segd");
    auto r = openMef3(session.string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ((*r)->info().warnings.size(), 1u);
    EXPECT_EQ((*r)->info().warnings[0], "video channel cam.vidd skipped: video is not supported");
    EXPECT_EQ((*r)->info().channels.size(), 1u);
}

TEST(SessionLayout, DirectoryWithoutChannelsIsNotFound)
{
    test::TempDir dir;
    fs::create_directories(dir.path() / "e.mefd");
    auto r = openMef3((dir.path() / "e.mefd").string(), {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().describe(),
              (dir.path() / "e.mefd").string() + ": no time-series channel (*.timd) in the session");
}

} // namespace
} // namespace lv::formats::mef3
