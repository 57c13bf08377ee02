// longview-cli on a session short of a member: a zeroed header inside a .mefd.tar, a segment folder without its
// data file, a channel folder without segments. None of them may make a channel vanish in silence.
#include "support/TestSupport.h"

#include <cstring>
#include <gtest/gtest.h>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

std::string cli() { return LONGVIEW_CLI; }

int runCli(const std::string& args, std::string& out)
{
    return test::run("LONGVIEW_NO_SNAPSHOT=1 " + cli() + " " + args + " 2>&1", &out);
}

// The offset of the first ustar header whose name holds `part`, or -1.
std::int64_t headerNaming(const std::vector<std::uint8_t>& tar, const std::string& part)
{
    for (std::size_t at = 0; at + 512 <= tar.size(); at += 512) {
        if (std::memcmp(&tar[at + 257], "ustar", 5) != 0) continue;
        const std::string name(reinterpret_cast<const char*>(&tar[at]),
                               strnlen(reinterpret_cast<const char*>(&tar[at]), 100));
        const std::string prefix(reinterpret_cast<const char*>(&tar[at + 345]),
                                 strnlen(reinterpret_cast<const char*>(&tar[at + 345]), 155));
        if ((prefix + "/" + name).find(part) != std::string::npos) return static_cast<std::int64_t>(at);
    }
    return -1;
}

TEST(CliLayoutDamage, AZeroedTarHeaderIsDamageForEveryCommand)
{
    test::TempDir dir;
    const std::string tar = (dir.path() / "m.mefd.tar").string();
    std::string out;
    ASSERT_EQ(runCli("archive " + (test::testdata() / "mef3/legacy/multi_channel.mefd").string() + " " + tar, out), 0)
        << out;
    auto bytes = test::readBytes(tar);
    const std::int64_t at = headerNaming(bytes, "ch2.timd");
    ASSERT_GT(at, 0);
    std::fill(bytes.begin() + at, bytes.begin() + at + 512, 0);
    test::writeBytes(tar, bytes);
    const std::string next = std::to_string(at + 512);
    const std::string error = tar + ": tar header is all zeros, but a member header follows at byte " + next +
                              " (at byte " + std::to_string(at) + ")";
    for (const std::string& command :
         {"info " + tar, "stats " + tar, "convert " + tar + " " + (dir.path() / "o.csv").string()}) {
        EXPECT_EQ(runCli(command, out), 3) << command;
        EXPECT_EQ(out, "longview-cli: " + error + " (the file is damaged)\n") << command;
    }
    EXPECT_FALSE(fs::exists(dir.path() / "o.csv"));
    EXPECT_EQ(runCli("validate " + tar, out), 1);
    EXPECT_EQ(out, error + "\n");
}

TEST(CliLayoutDamage, ASegmentWithoutItsDataFileIsNamed)
{
    test::TempDir dir;
    const fs::path session = dir.path() / "m.mefd";
    test::copyTree(test::testdata() / "mef3/legacy/multi_channel.mefd", session);
    fs::remove(session / "ch2.timd/ch2-000000.segd/ch2-000000.tdat");
    const std::string error =
        (session / "ch2.timd/ch2-000000.segd").string() + ": segment folder has no ch2-000000.tdat";
    std::string out;
    EXPECT_EQ(runCli("info " + session.string(), out), 3);
    EXPECT_EQ(out, "longview-cli: " + error + " (the file is damaged)\n");
    EXPECT_EQ(runCli("validate " + session.string(), out), 1);
    EXPECT_EQ(out, error + "\n");
}

TEST(CliLayoutDamage, AChannelWithoutSegmentsIsAProblem)
{
    test::TempDir dir;
    const fs::path session = dir.path() / "m.mefd";
    test::copyTree(test::testdata() / "mef3/legacy/multi_channel.mefd", session);
    fs::remove_all(session / "ch2.timd/ch2-000000.segd");
    std::string out;
    EXPECT_EQ(runCli("info " + session.string(), out), 0);
    EXPECT_NE(out.find("channel ch2 has no segments"), std::string::npos) << out;
    EXPECT_EQ(runCli("validate " + session.string(), out), 1);
    EXPECT_EQ(out, (session / "ch2.timd").string() + ": channel has no segments\n");
    // Such a channel cannot be written to MEF (it has no rate): the input's problem, exit 3, nothing written.
    const fs::path target = dir.path() / "out.mefd";
    EXPECT_EQ(runCli("convert " + session.string() + " " + target.string(), out), 3);
    EXPECT_NE(out.find("longview-cli: " + session.string() +
                       ": channel ch2 has no samples and no sampling rate (its segments are missing): it cannot be "
                       "written; leave it out with --channels"),
              std::string::npos)
        << out;
    EXPECT_FALSE(fs::exists(target));
    EXPECT_EQ(runCli("convert " + session.string() + " " + target.string() + " --channels ch1", out), 0) << out;
}

} // namespace
} // namespace lv::cli
