// longview-cli batch end to end: a folder of mixed recordings (one damaged) converted side by side; a failing
// file does not stop the rest (exit 5); --skip-existing resumes; shards split the work; usage errors.
#include "support/ChildProcess.h"
#include "support/TestSupport.h"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

// Runs the CLI with its stdout in `out` (stderr apart, so that --json parses).
int runCli(const std::string& args, std::string& out)
{
    return test::run("LONGVIEW_NO_SNAPSHOT=1 " + std::string(LONGVIEW_CLI) + " " + args + " 2>/dev/null", &out);
}

class CliBatch : public ::testing::Test {
protected:
    void SetUp() override
    {
        in = dir.path() / "in";
        fs::create_directories(in / "eeg");
        fs::create_directories(in / "bad");
        fs::create_directories(in / "mef");
        fs::copy_file(test::testdata() / "edf/ref_edflib.edf", in / "eeg/ref.edf");
        fs::copy_file(test::testdata() / "edf/ref_edflib.bdf", in / "eeg/ref.bdf");
        test::copyTree(test::testdata() / "mef3/legacy/plain_single.mefd", in / "mef/plain.mefd");
        const auto edf = test::readBytes(test::testdata() / "edf/ref_edflib.edf");
        test::writeBytes(in / "bad/cut.edf", std::vector<std::uint8_t>(edf.begin(), edf.begin() + 100));
    }
    nlohmann::json batch(const std::string& args, int expectedExit)
    {
        std::string out;
        EXPECT_EQ(runCli("batch " + args + " --json", out), expectedExit) << out;
        auto j = nlohmann::json::parse(out, nullptr, false);
        EXPECT_FALSE(j.is_discarded()) << out;
        return j;
    }
    // Samples an output holds, by `info --json`.
    static std::int64_t samplesIn(const std::string& output)
    {
        std::string out;
        EXPECT_EQ(runCli("info " + output + " --json", out), 0) << output;
        const auto info = nlohmann::json::parse(out);
        std::int64_t n = 0;
        for (const auto& c : info["channels"]) n += c["samples"].get<std::int64_t>();
        return n;
    }

    test::TempDir dir;
    fs::path in;
};

TEST_F(CliBatch, EveryGoodInputIsConvertedAndTheDamagedOneFailsAlone)
{
    const fs::path out = dir.path() / "out";
    const auto j = batch("--to mefd --out " + out.string() + " " + in.string() + " --jobs 2", 5);
    ASSERT_EQ(j["items"].size(), 4u) << j.dump();
    EXPECT_EQ(j["succeeded"], 3);
    EXPECT_EQ(j["failed"], 1);
    std::map<std::string, nlohmann::json> byInput;
    for (const auto& item : j["items"]) byInput[item["input"]] = item;
    const auto& bad = byInput[(in / "bad/cut.edf").string()];
    EXPECT_EQ(bad["status"], "failed");
    EXPECT_NE(bad["error"].get<std::string>().find((in / "bad/cut.edf").string()), std::string::npos) << bad;
    EXPECT_FALSE(fs::exists(out / "bad")); // a failed job leaves nothing, not even its folder
    // ref.edf and ref.bdf would both be eeg/ref.mefd: named apart, deterministically.
    const std::map<std::string, std::string> outputs = {
        {"eeg/ref.edf", "eeg/ref_edf.mefd"}, {"eeg/ref.bdf", "eeg/ref_bdf.mefd"}, {"mef/plain.mefd", "mef/plain.mefd"}};
    for (const auto& [input, output] : outputs) {
        const auto& item = byInput[(in / input).string()];
        EXPECT_EQ(item["status"], "ok") << item;
        EXPECT_EQ(item["output"], (out / output).string());
        EXPECT_EQ(item["renamed"], input != "mef/plain.mefd");
        EXPECT_EQ(item["samples"].get<std::int64_t>(), samplesIn((out / output).string())) << input;
        EXPECT_GT(item["samples"].get<std::int64_t>(), 0);
    }
}

TEST_F(CliBatch, SkipExistingResumesAndAllGoodExitsZero)
{
    fs::remove_all(in / "bad");
    const fs::path out = dir.path() / "out";
    const auto first = batch("--to edf --out " + out.string() + " " + in.string(), 0);
    EXPECT_EQ(first["succeeded"], 3);
    const auto written = fs::last_write_time(out / "mef/plain.edf");
    fs::remove(out / "eeg/ref_bdf.edf"); // as if its task had been killed
    const auto second = batch("--to edf --out " + out.string() + " " + in.string() + " --skip-existing", 0);
    EXPECT_EQ(second["succeeded"], 1);
    EXPECT_EQ(second["skipped"], 2);
    EXPECT_TRUE(fs::exists(out / "eeg/ref_bdf.edf"));
    EXPECT_EQ(fs::last_write_time(out / "mef/plain.edf"), written);
    // Without --skip-existing an existing output is that item's failure (never overwritten).
    const auto third = batch("--to edf --out " + out.string() + " " + in.string(), 5);
    EXPECT_EQ(third["failed"], 3);
    EXPECT_EQ(fs::last_write_time(out / "mef/plain.edf"), written);
}

TEST_F(CliBatch, ShardsTogetherConvertEveryInputExactlyOnce)
{
    const fs::path out = dir.path() / "out";
    std::multiset<std::string> seen;
    int failedTasks = 0;
    for (int i = 0; i < 3; ++i) {
        std::string text;
        const int status = runCli("batch --to mefd --out " + out.string() + " " + in.string() + " --json --shard " +
                                      std::to_string(i) + "/3",
                                  text);
        const auto j = nlohmann::json::parse(text, nullptr, false);
        ASSERT_FALSE(j.is_discarded()) << text;
        EXPECT_EQ(status, j["failed"].get<int>() > 0 ? 5 : 0) << text;
        failedTasks += j["failed"].get<int>() > 0;
        for (const auto& item : j["items"]) seen.insert(item["input"].get<std::string>());
    }
    EXPECT_EQ(failedTasks, 1); // the damaged input, reported by exactly one task
    ASSERT_EQ(seen.size(), 4u);
    for (const char* input : {"bad/cut.edf", "eeg/ref.bdf", "eeg/ref.edf", "mef/plain.mefd"})
        EXPECT_EQ(seen.count((in / input).string()), 1u) << input;
}

TEST_F(CliBatch, CtrlCKeepsFinishedOutputsAndRemovesTheUnfinishedOnes)
{
    fs::remove_all(in);
    fs::create_directories(in / "a");
    fs::copy_file(test::testdata() / "edf/ref_edflib.edf", in / "a/small.edf");
    std::string out;
    ASSERT_EQ(runCli("synth " + (in / "b.mefd").string() + " --channels 8 --hours 6 --seed 3", out), 0) << out;
    fs::copy_file(test::testdata() / "edf/ref_edflib.edf", in / "c.edf");
    const fs::path target = dir.path() / "out";
    const auto temporaryOfB = [&] {
        std::error_code ec;
        for (const auto& e : fs::directory_iterator(target, ec))
            if (e.path().filename().string().rfind("b.edf.tmp-", 0) == 0) return true;
        return false;
    };
    ::setenv("LONGVIEW_NO_SNAPSHOT", "1", 1);
    // One job at a time on one thread, in sorted order: a/small.edf, b.mefd, c.edf; Ctrl-C while b is written.
    const auto r = test::runChildKilledWhen(
        {LONGVIEW_CLI, "batch", "--to", "edf", "--out", target.string(), in.string(), "--jobs", "1", "--threads", "1"},
        [&] { return fs::exists(target / "a/small.edf") && temporaryOfB(); }, SIGINT);
    EXPECT_EQ(r.exitStatus, 130) << r.output;
    EXPECT_TRUE(fs::exists(target / "a/small.edf"));
    EXPECT_FALSE(fs::exists(target / "b.edf"));
    EXPECT_FALSE(temporaryOfB()) << r.output;
    EXPECT_FALSE(fs::exists(target / "c.edf"));
    EXPECT_NE(r.output.find("cancelled"), std::string::npos) << r.output;
}

TEST_F(CliBatch, RenameNamesTheOutputsChannelsInConvertAndBatch)
{
    std::string out;
    const fs::path csv = dir.path() / "r.csv";
    ASSERT_EQ(
        runCli("convert " + (in / "eeg/ref.edf").string() + " " + csv.string() + " --channels ECG --rename ECG=Heart",
               out),
        0);
    const auto bytes = test::readBytes(csv);
    const std::string text(bytes.begin(), bytes.end());
    EXPECT_NE(text.find("\ntime,Heart\n"), std::string::npos) << text.substr(0, 200);
    fs::remove_all(in / "bad");
    fs::remove_all(in / "mef");
    const auto j =
        batch("--to edf --out " + (dir.path() / "o").string() + " " + in.string() + " --rename ECG=Heart", 0);
    ASSERT_EQ(j["items"].size(), 2u);
    for (const auto& item : j["items"]) {
        ASSERT_EQ(runCli("info " + item["output"].get<std::string>() + " --json", out), 0);
        const auto info = nlohmann::json::parse(out);
        int heart = 0, ecg = 0;
        for (const auto& c : info["channels"]) heart += c["name"] == "Heart", ecg += c["name"] == "ECG";
        EXPECT_EQ(heart, 1) << item["input"];
        EXPECT_EQ(ecg, 0) << item["input"];
    }
    EXPECT_EQ(runCli("convert " + (in / "eeg/ref.edf").string() + " " + (dir.path() / "x.csv").string() +
                         " --rename Nope=Heart",
                     out),
              2);
}

TEST_F(CliBatch, UnknownTargetsAndShardsAreUsageErrors)
{
    std::string out;
    EXPECT_EQ(runCli("batch --to xyz --out o " + in.string(), out), 2);
    EXPECT_EQ(runCli("batch --to edf --out o --shard 3/3 " + in.string(), out), 2);
    EXPECT_EQ(test::run(std::string(LONGVIEW_CLI) + " batch --to xyz --out o " + in.string() + " 2>&1", &out), 2);
    EXPECT_EQ(
        out,
        "longview-cli: --to \"xyz\" is no target format: use a .csv, .mefd, .edf, .bdf, .mf4, .vhdr or .zarr name\n");
}

} // namespace
} // namespace lv::cli
