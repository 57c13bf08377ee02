// longview-cli exit statuses and words: output failures exit 4 and name the target, whatever writes them.
#include "support/ChildProcess.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <unistd.h>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

std::string cli() { return LONGVIEW_CLI; }

test::ChildResult runCli(std::vector<std::string> args, std::uint64_t fileSizeLimit = 0)
{
    args.insert(args.begin(), cli());
    return test::runChild(args, std::nullopt, fileSizeLimit);
}

// A folder this process may not create files in: /sys for root (who ignores modes), else a 0555 folder.
fs::path unwritableFolder(const test::TempDir& dir)
{
    if (::geteuid() == 0) return "/sys";
    const fs::path ro = dir.path() / "ro";
    fs::create_directory(ro);
    fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
    return ro;
}

std::vector<std::string> namesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

class CliErrors : public ::testing::Test {
protected:
    void SetUp() override
    {
        const auto made = runCli({"synth", session(), "--channels", "2", "--hours", "0.05", "--fs", "500"});
        ASSERT_EQ(made.exitStatus, 0) << made.output;
    }
    std::string session() const { return (m_dir.path() / "s.mefd").string(); }
    test::TempDir m_dir;
};

TEST_F(CliErrors, ArchiveThatCannotBeWrittenExits4)
{
    const std::string tar = (m_dir.path() / "s.mefd.tar").string();
    const auto limited = runCli({"archive", session(), tar}, 100'000);
    EXPECT_EQ(limited.exitStatus, 4) << limited.output;
    EXPECT_NE(limited.output.find("longview-cli: " + tar +
                                  ": cannot write the output: File too large (free some "
                                  "space, or write elsewhere)"),
              std::string::npos)
        << limited.output;
    EXPECT_EQ(namesIn(m_dir.path()), std::vector<std::string>{"s.mefd"});

    const std::string denied = (unwritableFolder(m_dir) / "s.mefd.tar").string();
    const auto readOnly = runCli({"archive", session(), denied});
    EXPECT_EQ(readOnly.exitStatus, 4) << readOnly.output;
    EXPECT_NE(readOnly.output.find(denied + ": cannot create a temporary file beside the output: Permission denied"),
              std::string::npos)
        << readOnly.output;
}

TEST_F(CliErrors, ExtractThatCannotBeWrittenExits4NamesTheTargetAndLeavesNoFolder)
{
    const std::string tar = (m_dir.path() / "s.mefd.tar").string();
    ASSERT_EQ(runCli({"archive", session(), tar}).exitStatus, 0);
    const fs::path target = m_dir.path() / "new" / "place";
    const auto limited = runCli({"extract", tar, target.string()}, 100'000);
    EXPECT_EQ(limited.exitStatus, 4) << limited.output;
    EXPECT_NE(limited.output.find("longview-cli: " + target.string() + "/s.mefd/"), std::string::npos)
        << limited.output;
    EXPECT_NE(limited.output.find(": cannot write: File too large (at byte "), std::string::npos) << limited.output;
    EXPECT_EQ(limited.output.find(".extract-"), std::string::npos) << limited.output;
    EXPECT_FALSE(fs::exists(m_dir.path() / "new")) << "an empty target folder is left";

    const fs::path denied = unwritableFolder(m_dir) / "x";
    const auto readOnly = runCli({"extract", tar, denied.string()});
    EXPECT_EQ(readOnly.exitStatus, 4) << readOnly.output;
    EXPECT_NE(readOnly.output.find("longview-cli: " + denied.string() + ": cannot create the folder: "),
              std::string::npos)
        << readOnly.output;
}

TEST_F(CliErrors, SplitEdfThatCannotBeWrittenExits4)
{
    // A pause in the synthetic session gives two EDF+C files with --gaps split.
    const std::string out = (m_dir.path() / "out.edf").string();
    const auto limited = runCli({"convert", session(), out, "--gaps", "split"}, 20'000);
    EXPECT_EQ(limited.exitStatus, 4) << limited.output;
    EXPECT_NE(limited.output.find(": cannot write the output: File too large (free some space, or write elsewhere)"),
              std::string::npos)
        << limited.output;
    EXPECT_EQ(namesIn(m_dir.path()), std::vector<std::string>{"s.mefd"});
}

TEST_F(CliErrors, ConvertAndSynthIntoAnUnwritableFolderExit4)
{
    const fs::path denied = unwritableFolder(m_dir);
    const auto convert = runCli({"convert", session(), (denied / "out.mefd").string()});
    EXPECT_EQ(convert.exitStatus, 4) << convert.output;
    const auto synth = runCli({"synth", (denied / "t.mefd").string(), "--hours", "0.01"});
    EXPECT_EQ(synth.exitStatus, 4) << synth.output;
    EXPECT_NE(synth.output.find(": cannot create the session directory: "), std::string::npos) << synth.output;
}

} // namespace
} // namespace lv::cli
