// longview-cli writing end to end: synth, recover, a full disk and killed conversions; the source is never
// touched and no partial output is left.
#include "support/ChildProcess.h"
#include "support/TestSupport.h"

#include <chrono>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <random>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

std::string cli() { return LONGVIEW_CLI; }

test::ChildResult runCli(std::vector<std::string> args)
{
    args.insert(args.begin(), cli());
    return test::runChild(args);
}

std::map<std::string, std::vector<std::uint8_t>> snapshot(const fs::path& root)
{
    std::map<std::string, std::vector<std::uint8_t>> files;
    for (const auto& e : fs::recursive_directory_iterator(root))
        if (e.is_regular_file()) files[fs::relative(e.path(), root).string()] = test::readBytes(e.path());
    return files;
}

// Names in `dir` other than `keep`.
std::vector<std::string> othersIn(const fs::path& dir, const std::string& keep)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename() != keep) names.push_back(e.path().filename().string());
    return names;
}

TEST(CliWrite, SynthWritesTheRequestedSessionDeterministically)
{
    test::TempDir a, b;
    const std::vector<std::string> args{"synth",
                                        "",
                                        "--channels",
                                        "4",
                                        "--hours",
                                        "0.05",
                                        "--fs",
                                        "200",
                                        "--seed",
                                        "11",
                                        "--start",
                                        "2024-03-01T12:00:00Z",
                                        "--segment-minutes",
                                        "1"};
    auto first = args, second = args;
    first[1] = (a.path() / "s.mefd").string();
    second[1] = (b.path() / "s.mefd").string();
    const auto made = runCli(first);
    ASSERT_EQ(made.exitStatus, 0) << made.output;
    EXPECT_NE(made.output.find("4 channels, 0.05 h at 200 Hz from 2024-03-01T12:00:00.000000+00:00"), std::string::npos)
        << made.output;
    ASSERT_EQ(runCli(second).exitStatus, 0);
    EXPECT_TRUE(snapshot(a.path()) == snapshot(b.path()));
    const auto info = runCli({"info", "--json", first[1]});
    ASSERT_EQ(info.exitStatus, 0) << info.output;
    const auto json = nlohmann::json::parse(info.output);
    EXPECT_EQ(json["channels"].size(), 4u);
    EXPECT_EQ(json["channels"][0]["segments"].size(), 3u); // three minutes, a segment a minute
    EXPECT_EQ(runCli({"validate", first[1]}).exitStatus, 0);
    const auto again = runCli(first);
    EXPECT_EQ(again.exitStatus, 2);
    EXPECT_NE(again.output.find("s.mefd: the output already exists; choose a new name"), std::string::npos)
        << again.output;
}

TEST(CliWrite, RecoverCutsADamagedTailAndValidateAgrees)
{
    test::TempDir dir;
    const std::string s = (dir.path() / "s.mefd").string();
    ASSERT_EQ(runCli({"synth", s, "--channels", "2", "--hours", "0.02", "--no-gaps"}).exitStatus, 0);
    const fs::path tdat = dir.path() / "s.mefd/ch002.timd/ch002-000000.segd/ch002-000000.tdat";
    fs::resize_file(tdat, fs::file_size(tdat) - 100);
    const auto before = runCli({"validate", s});
    EXPECT_EQ(before.exitStatus, 1);
    EXPECT_NE(before.output.find("ch002-000000.tdat: RED block 7 lies outside the file"), std::string::npos)
        << before.output;
    const auto recovered = runCli({"recover", s});
    ASSERT_EQ(recovered.exitStatus, 0) << recovered.output;
    EXPECT_NE(recovered.output.find("kept: ch002.timd/ch002-000000.segd: 7 blocks, 17920 samples (index and "
                                    "metadata rebuilt), the index had 8"),
              std::string::npos)
        << recovered.output;
    EXPECT_NE(recovered.output.find("dropped: ch002.timd/ch002-000000.segd:"), std::string::npos);
    EXPECT_EQ(runCli({"validate", s}).exitStatus, 0);
    const auto nothing = runCli({"recover", s});
    EXPECT_NE(nothing.output.find("nothing to recover"), std::string::npos) << nothing.output;
    EXPECT_EQ(runCli({"recover", (dir.path() / "none.mefd").string()}).exitStatus, 2);
}

TEST(CliWrite, AFullDiskFailsClearlyLeavesNoOutputAndKeepsTheSource)
{
    test::TempDir dir;
    const std::string in = (dir.path() / "in.mefd").string();
    ASSERT_EQ(runCli({"synth", in, "--channels", "4", "--hours", "0.1"}).exitStatus, 0);
    const auto source = snapshot(in);
    for (const char* out : {"out.mefd", "out.csv"}) {
        const std::string target = (dir.path() / out).string();
        const auto r = test::runChild({cli(), "convert", in, target}, std::nullopt, 100'000);
        EXPECT_EQ(r.exitStatus, 4) << r.output;
        EXPECT_NE(r.output.find("File too large"), std::string::npos) << r.output;
        EXPECT_NE(r.output.find(target), std::string::npos) << r.output; // names the file it could not write
        EXPECT_EQ(othersIn(dir.path(), "in.mefd"), std::vector<std::string>{}) << out;
    }
    const auto synth =
        test::runChild({cli(), "synth", (dir.path() / "s.mefd").string(), "--hours", "0.1"}, std::nullopt, 100'000);
    EXPECT_EQ(synth.exitStatus, 4) << synth.output;
    EXPECT_EQ(othersIn(dir.path(), "in.mefd"), std::vector<std::string>{});
    EXPECT_TRUE(snapshot(in) == source);
}

TEST(CliWrite, InfoKeepsAndUsesASnapshotUnlessTurnedOff)
{
    test::TempDir dir;
    const std::string s = (dir.path() / "s.mefd").string(), snapshots = (dir.path() / "snap").string();
    ASSERT_EQ(runCli({"synth", s, "--channels", "3", "--hours", "0.05", "--segment-minutes", "0.5"}).exitStatus, 0);
    std::string first, second, off;
    ASSERT_EQ(test::run("LONGVIEW_SNAPSHOT_DIR=" + snapshots + " " + cli() + " info --json " + s, &first), 0);
    ASSERT_EQ(std::distance(fs::directory_iterator(snapshots), fs::directory_iterator()), 1);
    ASSERT_EQ(test::run("LONGVIEW_SNAPSHOT_DIR=" + snapshots + " " + cli() + " info --json " + s, &second), 0);
    EXPECT_EQ(first, second);
    fs::remove_all(snapshots);
    ASSERT_EQ(test::run("LONGVIEW_NO_SNAPSHOT=1 LONGVIEW_SNAPSHOT_DIR=" + snapshots + " " + cli() + " info --json " + s,
                        &off),
              0);
    EXPECT_EQ(off, first);
    EXPECT_FALSE(fs::exists(snapshots));
}

TEST(CliWrite, AKilledConvertLeavesNoPartialTargetAndTheNextOneCleansUp)
{
    test::TempDir dir;
    const std::string in = (dir.path() / "in.mefd").string();
    ASSERT_EQ(runCli({"synth", in, "--channels", "16", "--hours", "0.25"}).exitStatus, 0);
    const auto source = snapshot(in);
    const std::string target = (dir.path() / "out.mefd").string();
    // Kills land anywhere within one whole conversion, timed here first.
    const auto began = std::chrono::steady_clock::now();
    ASSERT_EQ(runCli({"convert", in, target}).exitStatus, 0);
    const auto whole = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - began);
    fs::remove_all(target);
    std::mt19937 rng(7);
    std::uniform_int_distribution<std::int64_t> delayUs(0, whole.count() * 9 / 10);
    int killed = 0;
    for (int round = 0; round < 8; ++round) {
        const auto r = test::runChild({cli(), "convert", in, target}, std::chrono::microseconds(delayUs(rng)));
        killed += r.killed;
        if (!r.killed) {
            ASSERT_EQ(r.exitStatus, 0) << r.output;
        }
        // A target exists only whole: the conversion finished (a kill may land after the rename, before exit).
        if (fs::exists(target)) {
            EXPECT_EQ(runCli({"validate", target}).exitStatus, 0) << "round " << round;
            fs::remove_all(target);
        } else {
            EXPECT_TRUE(r.killed) << "round " << round;
        }
    }
    EXPECT_GT(killed, 3);
    const auto last = runCli({"convert", in, target});
    ASSERT_EQ(last.exitStatus, 0) << last.output;
    EXPECT_EQ(runCli({"validate", target}).exitStatus, 0);
    EXPECT_EQ(othersIn(dir.path(), "in.mefd"), std::vector<std::string>{"out.mefd"}); // stale temporaries gone
    EXPECT_TRUE(snapshot(in) == source);
}

} // namespace
} // namespace lv::cli
