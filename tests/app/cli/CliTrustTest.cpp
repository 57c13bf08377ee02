// longview-cli on encryption and records: identical passwords refused, outputs never claim more than the source
// knew about times, level-1 views of re-encrypted outputs hide the dates; damaged or renamed session records.
#include "support/ChildProcess.h"
#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

test::ChildResult runCli(std::vector<std::string> args)
{
    args.insert(args.begin(), std::string(LONGVIEW_CLI));
    return test::runChild(args);
}

nlohmann::json infoJson(const std::string& path, const std::string& password = {})
{
    std::vector<std::string> args{"info", "--json", path};
    if (!password.empty()) args.insert(args.end(), {"--password", password});
    const auto r = runCli(args);
    EXPECT_EQ(r.exitStatus, 0) << r.output;
    const auto brace = r.output.find('{');
    return brace == std::string::npos ? nlohmann::json{} : nlohmann::json::parse(r.output.substr(brace));
}

constexpr std::int64_t kStart = 1735732800000000; // 2025-01-01T12:00:00Z

class CliTrust : public ::testing::Test {
protected:
    void SetUp() override
    {
        const auto made = runCli({"synth", path("s.mefd"), "--channels", "2", "--hours", "0.02", "--fs", "200",
                                  "--start", "2025-01-01T12:00:00Z"});
        ASSERT_EQ(made.exitStatus, 0) << made.output;
    }
    std::string path(const std::string& name) const { return (m_dir.path() / name).string(); }
    // s.mefd encrypted with level-1 "one" and level-2 "two".
    void encrypt()
    {
        const auto r = runCli(
            {"convert", path("s.mefd"), path("enc.mefd"), "--level1-password", "one", "--level2-password", "two"});
        ASSERT_EQ(r.exitStatus, 0) << r.output;
    }
    test::TempDir m_dir;
};

TEST_F(CliTrust, IdenticalLevel1AndLevel2PasswordsAreRefused)
{
    const auto r =
        runCli({"convert", path("s.mefd"), path("o.mefd"), "--level1-password", "same", "--level2-password", "same"});
    EXPECT_EQ(r.exitStatus, 2) << r.output;
    EXPECT_EQ(r.output, "longview-cli: the level-1 and level-2 passwords are the same: a reader would then open only "
                        "level 1 and never see the subject or the record texts; choose two different passwords\n");
    EXPECT_FALSE(fs::exists(path("o.mefd")));
    const auto merged =
        runCli({"merge", path("s.mefd"), path("m.mefd"), "--level1-password", "same", "--level2-password", "same"});
    EXPECT_EQ(merged.exitStatus, 2) << merged.output;
}

TEST_F(CliTrust, ReEncryptedOutputHidesDatesAtLevel1AndKeepsThemAtLevel2)
{
    encrypt();
    const auto level2 = infoJson(path("enc.mefd"), "two");
    EXPECT_EQ(level2["times_known"], true);
    EXPECT_EQ(level2["start_uutc"], kStart);
    EXPECT_EQ(level2["annotations"][0]["time_uutc"], infoJson(path("s.mefd"))["annotations"][0]["time_uutc"]);
    const auto level1 = infoJson(path("enc.mefd"), "one");
    EXPECT_EQ(level1["times_known"], false);
    EXPECT_EQ(level1["start_uutc"], 0);
    EXPECT_EQ(level1["end_uutc"], static_cast<std::int64_t>(level2["end_uutc"]) - kStart);
    // Re-encrypting the level-2 view with new passwords keeps the dates at level 2 only.
    const auto again = runCli({"convert", path("enc.mefd"), path("again.mefd"), "--password", "two",
                               "--level1-password", "three", "--level2-password", "four"});
    ASSERT_EQ(again.exitStatus, 0) << again.output;
    EXPECT_EQ(infoJson(path("again.mefd"), "three")["times_known"], false);
    EXPECT_EQ(infoJson(path("again.mefd"), "four")["start_uutc"], kStart);
}

TEST_F(CliTrust, OutputsOfALevel1ReadStayRelativeAndSaySo)
{
    encrypt();
    const std::int64_t span = infoJson(path("enc.mefd"), "one")["end_uutc"];
    // MEF, plain and re-encrypted: relative at every level.
    ASSERT_EQ(runCli({"convert", path("enc.mefd"), path("plain.mefd"), "--password", "one"}).exitStatus, 0);
    const auto plain = infoJson(path("plain.mefd"));
    EXPECT_EQ(plain["times_known"], false);
    EXPECT_EQ(plain["start_uutc"], 0);
    EXPECT_EQ(plain["end_uutc"], span);
    ASSERT_EQ(runCli({"convert", path("enc.mefd"), path("re.mefd"), "--password", "one", "--level1-password", "a",
                      "--level2-password", "b"})
                  .exitStatus,
              0);
    EXPECT_EQ(infoJson(path("re.mefd"), "b")["times_known"], false);
    EXPECT_EQ(infoJson(path("re.mefd"), "b")["start_uutc"], 0);
    // EDF+: the unknown start date of the specification, relative when read back.
    const auto edf = runCli({"convert", path("enc.mefd"), path("o.edf"), "--password", "one"});
    ASSERT_EQ(edf.exitStatus, 0) << edf.output;
    EXPECT_NE(edf.output.find("warning: the source's times are relative (its true dates are unknown): written with "
                              "EDF+'s unknown start date (01.01.85, \"Startdate X\"), times counted from there"),
              std::string::npos)
        << edf.output;
    const auto edfInfo = infoJson(path("o.edf"));
    EXPECT_EQ(edfInfo["times_known"], false);
    EXPECT_EQ(edfInfo["start_uutc"], 0);
    std::ifstream header(path("o.edf"), std::ios::binary);
    std::string fixed(256, '\0');
    header.read(fixed.data(), 256);
    EXPECT_EQ(fixed.substr(88, 12), "Startdate X ");
    EXPECT_EQ(fixed.substr(168, 16), "01.01.8500.00.00");
    // CSV: a header line says so.
    ASSERT_EQ(runCli({"convert", path("enc.mefd"), path("o.csv"), "--password", "one"}).exitStatus, 0);
    std::ifstream csv(path("o.csv"));
    std::string units, times;
    std::getline(csv, units);
    std::getline(csv, times);
    EXPECT_EQ(times, "# times: relative (the source's true dates are unknown)");
}

TEST_F(CliTrust, ADamagedSessionRecordFileWarnsAndRecoverMovesItAside)
{
    const fs::path rdat = m_dir.path() / "s.mefd/s.rdat";
    ASSERT_TRUE(fs::exists(rdat));
    auto bytes = test::readBytes(rdat);
    bytes[100] ^= 0x5A; // inside the universal header: its CRC fails
    test::writeBytes(rdat, bytes);
    const auto info = runCli({"info", path("s.mefd")});
    EXPECT_EQ(info.exitStatus, 0) << info.output;
    EXPECT_NE(info.output.find("warning: " + rdat.string() + ": "), std::string::npos) << info.output;
    EXPECT_NE(info.output.find(": its records are not read (recover moves the file aside)"), std::string::npos)
        << info.output;
    const auto stats = runCli({"stats", path("s.mefd")});
    EXPECT_EQ(stats.exitStatus, 0) << stats.output;
    const auto recovered = runCli({"recover", path("s.mefd")});
    EXPECT_EQ(recovered.exitStatus, 0) << recovered.output;
    EXPECT_NE(recovered.output.find("dropped: s.rdat: "), std::string::npos) << recovered.output;
    EXPECT_NE(recovered.output.find(": moved aside to s.rdat.damaged (with its .ridx)"), std::string::npos)
        << recovered.output;
    EXPECT_NE(recovered.output.find(path("s.mefd") + ": recovered"), std::string::npos) << recovered.output;
    EXPECT_TRUE(fs::exists(m_dir.path() / "s.mefd/s.rdat.damaged"));
    const auto after = runCli({"info", path("s.mefd")});
    EXPECT_EQ(after.output.find("warning"), std::string::npos) << after.output;
}

TEST_F(CliTrust, SessionRecordsOfARenamedFolderAreReadWithAWarning)
{
    const auto before = infoJson(path("s.mefd"));
    ASSERT_FALSE(before["annotations"].empty());
    fs::rename(path("s.mefd"), path("renamed.mefd"));
    const auto after = infoJson(path("renamed.mefd"));
    EXPECT_EQ(after["annotations"], before["annotations"]);
    EXPECT_NE(after["warnings"].dump().find(
                  "session records s.rdat do not match the folder name renamed.mefd (renamed?): read them as the "
                  "session's records"),
              std::string::npos)
        << after["warnings"].dump();
}

} // namespace
} // namespace lv::cli
