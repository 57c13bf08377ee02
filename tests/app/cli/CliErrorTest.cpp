// longview-cli exit statuses and words: output failures exit 4 and name the target, whatever writes them.
#include "support/ChildProcess.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <sys/stat.h>
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
    EXPECT_NE(
        synth.output.find((denied / "t.mefd").string() + ": cannot create a temporary folder beside the output: "),
        std::string::npos)
        << synth.output;
}

TEST_F(CliErrors, ValidateSaysWhatItIsGivenWhenItIsNotASession)
{
    const std::string edf = (test::testdata() / "edf/ref_edflib.edf").string();
    const auto clean = runCli({"validate", edf});
    EXPECT_EQ(clean.exitStatus, 0) << clean.output;
    EXPECT_EQ(clean.output, "not a MEF 3.0 session: " + edf +
                                " is an EDF+C file; checked its header and every sample of 10 records: no problems\n");

    const fs::path cut = m_dir.path() / "cut.edf";
    auto bytes = test::readBytes(edf);
    bytes.resize(bytes.size() - 100);
    test::writeBytes(cut, bytes);
    const auto damaged = runCli({"validate", cut.string()});
    EXPECT_EQ(damaged.exitStatus, 1) << damaged.output;
    EXPECT_NE(damaged.output.find(cut.string() + ": the header announces 10 data records, the file holds 9: read 9"),
              std::string::npos)
        << damaged.output;
    EXPECT_NE(damaged.output.find("checked its header and every sample of 9 records: 2 problems"), std::string::npos)
        << damaged.output;

    const fs::path fifo = m_dir.path() / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const fs::path loop = m_dir.path() / "loop";
    fs::create_symlink(m_dir.path() / "loop2", loop);
    fs::create_symlink(loop, m_dir.path() / "loop2");
    const fs::path plain = m_dir.path() / "plain";
    fs::create_directory(plain);
    const std::vector<std::pair<std::string, std::string>> cases{
        {fifo.string(), ": is a FIFO, not a recording"},
        {"/dev/zero", ": is a character device, not a recording"},
        {loop.string(), ": too many levels of symbolic links"},
        {plain.string(), ": no time-series channel (*.timd) in the session"}};
    for (const auto& [path, words] : cases)
        for (const char* command : {"validate", "info"}) {
            const auto r = runCli({command, path});
            EXPECT_EQ(r.exitStatus, 3) << command << " " << path << ": " << r.output;
            EXPECT_EQ(r.output, "longview-cli: " + path + words + "\n") << command;
        }
}

TEST_F(CliErrors, DifferentRatesNameTheFileUsageForCsvDamageWithinAChannel)
{
    const std::string edf = (test::testdata() / "edf/ref_edflib.edf").string();
    const auto csv = runCli({"convert", edf, (m_dir.path() / "out.csv").string()});
    EXPECT_EQ(csv.exitStatus, 2) << csv.output;
    EXPECT_NE(csv.output.find("longview-cli: " + edf + ": channels "), std::string::npos) << csv.output;
    EXPECT_NE(csv.output.find("have different sampling rates: export channels of one rate at a time with "
                              "--channels"),
              std::string::npos)
        << csv.output;

    // Segment 1 of one channel taken from a session at another rate: damage within one recording.
    test::TempDir other;
    const std::string a = (m_dir.path() / "a/s.mefd").string(), b = (other.path() / "s.mefd").string();
    fs::create_directory(m_dir.path() / "a");
    for (const auto& [path, fs] : {std::pair{a, "500"}, std::pair{b, "250"}})
        ASSERT_EQ(runCli({"synth", path, "--channels", "1", "--hours", "0.0167", "--fs", fs, "--segment-minutes", "0.5",
                          "--no-gaps"})
                      .exitStatus,
                  0);
    const std::string segment = "ch001.timd/ch001-000001.segd";
    fs::remove_all(fs::path(a) / segment);
    fs::copy(fs::path(b) / segment, fs::path(a) / segment);
    const auto info = runCli({"info", a});
    EXPECT_EQ(info.exitStatus, 3) << info.output;
    EXPECT_EQ(info.output, "longview-cli: " + a + "/" + segment +
                               "/ch001-000001.tmet: sampling frequency 250 Hz differs from the channel's 500 Hz (in "
                               "ch001-000000.tmet): segments of one channel have one rate (at byte 8720) (the file is "
                               "damaged)\n");
}

} // namespace
} // namespace lv::cli
