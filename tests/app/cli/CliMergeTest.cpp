// longview-cli merge end to end: a synthetic session split with convert --start/--end (MEF and EDF parts) and
// merged back gives the original's CSV; overlaps and rate mismatches are refused with their messages; usage.
#include "support/ChildProcess.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

int runCli(const std::string& args, std::string& out)
{
    return test::run(std::string(LONGVIEW_CLI) + " " + args + " 2>&1", &out);
}

std::string text(const fs::path& file)
{
    const auto bytes = test::readBytes(file);
    return std::string(bytes.begin(), bytes.end());
}

// CSV rows by their time cell (uUTC), each the list of value cells.
std::map<std::string, std::vector<std::string>> rows(const fs::path& csv)
{
    std::map<std::string, std::vector<std::string>> out;
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line); // # units
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        std::stringstream cells(line);
        std::string time, cell;
        std::getline(cells, time, ',');
        auto& values = out[time];
        while (std::getline(cells, cell, ',')) values.push_back(cell);
        if (!line.empty() && line.back() == ',') values.push_back({});
    }
    return out;
}

class CliMerge : public ::testing::Test {
protected:
    std::string path(const std::string& name) const { return (m_dir.path() / name).string(); }
    void synth(const std::string& name, const std::string& extra, const std::string& hours = "0.05")
    {
        std::string out;
        ASSERT_EQ(runCli("synth " + path(name) + " --channels 3 --fs 256 --seed 5 --hours " + hours + " " + extra, out),
                  0)
            << out;
    }
    void convert(const std::string& from, const std::string& to, const std::string& extra)
    {
        std::string out;
        ASSERT_EQ(runCli("convert " + path(from) + " " + path(to) + " " + extra, out), 0) << out;
    }
    test::TempDir m_dir;
};

TEST_F(CliMerge, MefPartsMergeBackToTheOriginalSampleForSample)
{
    synth("orig.mefd", "");
    convert("orig.mefd", "a.mefd", "--end +97.5");
    convert("orig.mefd", "b.mefd", "--start +97.5");
    std::string out;
    ASSERT_EQ(runCli("merge " + path("b.mefd") + " " + path("a.mefd") + " " + path("m.mefd"), out), 0) << out;
    EXPECT_EQ(out, "");
    ASSERT_EQ(
        runCli("merge " + path("a.mefd") + " " + path("b.mefd") + " " + path("m.csv") + " --raw --time uutc", out), 0)
        << out;
    convert("orig.mefd", "orig.csv", "--raw --time uutc");
    convert("m.mefd", "again.csv", "--raw --time uutc");
    const std::string original = text(path("orig.csv"));
    EXPECT_GT(original.size(), 100'000u);
    EXPECT_TRUE(text(path("m.csv")) == original);
    EXPECT_TRUE(text(path("again.csv")) == original);
    std::string a, b;
    ASSERT_EQ(runCli("info --json " + path("orig.mefd"), a), 0) << a;
    ASSERT_EQ(runCli("info --json " + path("m.mefd"), b), 0) << b;
    const auto x = nlohmann::json::parse(a), y = nlohmann::json::parse(b);
    ASSERT_EQ(x["channels"].size(), y["channels"].size());
    std::size_t gaps = 0;
    for (std::size_t c = 0; c < x["channels"].size(); ++c) {
        EXPECT_EQ(x["channels"][c]["gaps"], y["channels"][c]["gaps"]);
        EXPECT_EQ(x["channels"][c]["samples"], y["channels"][c]["samples"]);
        gaps += x["channels"][c]["gaps"].size();
    }
    EXPECT_GT(gaps, 0u);
    EXPECT_EQ(x["annotations"], y["annotations"]);
}

TEST_F(CliMerge, MefAndEdfPartsMergeWithinHalfAQuantisationStep)
{
    synth("orig.mefd", "--no-gaps");
    convert("orig.mefd", "a.mefd", "--end +60");
    convert("orig.mefd", "b.edf", "--start +75");
    std::string out;
    ASSERT_EQ(runCli("merge " + path("a.mefd") + " " + path("b.edf") + " " + path("m.mefd"), out), 0) << out;
    EXPECT_EQ(out, ""); // no warning: the EDF part's steps lie on the MEF part's or half-way between them
    convert("orig.mefd", "orig.csv", "--time uutc");
    convert("m.mefd", "m.csv", "--time uutc");
    ASSERT_EQ(runCli("info --json " + path("b.edf"), out), 0) << out;
    const auto edf = nlohmann::json::parse(out);
    const auto original = rows(path("orig.csv")), merged = rows(path("m.csv"));
    const long long start = edf["start_uutc"], holeStart = start - 15'000'000;
    std::size_t hole = 0, worse = 0;
    for (const auto& [time, want] : original) {
        const long long t = std::stoll(time);
        const auto got = merged.find(time);
        if (t >= holeStart && t < start) {
            hole += got == merged.end();
            continue;
        }
        ASSERT_NE(got, merged.end()) << time;
        ASSERT_EQ(got->second.size(), want.size());
        for (std::size_t c = 0; c < want.size(); ++c) {
            const double step = edf["channels"][c]["conversion_factor"];
            const double err = std::abs(std::stod(got->second[c]) - std::stod(want[c]));
            worse += err > (t < holeStart ? 1e-9 : step / 2 + 1e-9); // the MEF part exact, to the printed digits
        }
    }
    EXPECT_EQ(hole, 15u * 256u);
    EXPECT_EQ(merged.size(), original.size() - hole);
    EXPECT_EQ(worse, 0u);
    ASSERT_EQ(runCli("info --json " + path("m.mefd"), out), 0) << out;
    const auto m = nlohmann::json::parse(out);
    for (const auto& ch : m["channels"])
        EXPECT_EQ(ch["gaps"],
                  nlohmann::json::parse("[[" + std::to_string(holeStart) + "," + std::to_string(start) + "]]"));
}

TEST_F(CliMerge, OverlapAndRateMismatchAreRefusedWithTheirMessages)
{
    synth("orig.mefd", "--no-gaps");
    convert("orig.mefd", "a.mefd", "--end +100");
    convert("orig.mefd", "b.mefd", "--start +80");
    std::string out;
    EXPECT_EQ(runCli("merge " + path("b.mefd") + " " + path("a.mefd") + " " + path("m.edf"), out), 3);
    EXPECT_EQ(out, "longview-cli: " + path("a.mefd") + " and " + path("b.mefd") +
                       " overlap in channel \"ch001\" from 2025-01-01T00:01:20.000000+00:00 to "
                       "2025-01-01T00:01:40.000000+00:00\n");
    EXPECT_FALSE(fs::exists(path("m.edf")));

    ASSERT_EQ(
        runCli("synth " + path("fast.mefd") + " --channels 2 --hours 0.01 --fs 512 --start 2025-01-02T00:00:00Z", out),
        0)
        << out;
    EXPECT_EQ(runCli("merge " + path("orig.mefd") + " " + path("fast.mefd") + " " + path("m.csv"), out), 2);
    EXPECT_EQ(out, "longview-cli: channel \"ch001\" is sampled at 256 Hz in " + path("orig.mefd") +
                       " but at 512 Hz in " + path("fast.mefd") + "; merged parts need one rate per channel\n");
    EXPECT_FALSE(fs::exists(path("m.csv")));
}

TEST_F(CliMerge, OverlapPoliciesWriteTheKeptInputsSamples)
{
    synth("orig.mefd", "--no-gaps");
    convert("orig.mefd", "a.mefd", "--end +100");
    std::string out;
    ASSERT_EQ(runCli("synth " + path("other.mefd") + " --channels 3 --fs 256 --seed 9 --hours 0.05 --no-gaps", out), 0);
    convert("other.mefd", "b.mefd", "--start +80"); // another signal, overlapping a from 80 s to 100 s
    convert("orig.mefd", "a.csv", "--raw --time uutc --end +100");
    convert("other.mefd", "b.csv", "--raw --time uutc --start +80");
    const auto a = rows(path("a.csv")), b = rows(path("b.csv"));
    for (const std::string policy : {"first", "last"}) {
        const std::string csv = "m-" + policy + ".csv";
        ASSERT_EQ(runCli("merge --overlap " + policy + " " + path("b.mefd") + " " + path("a.mefd") + " " + path(csv) +
                             " --raw --time uutc",
                         out),
                  0)
            << out;
        EXPECT_NE(out.find("overlap in channel \"ch001\" from 2025-01-01T00:01:20.000000+00:00 to "
                           "2025-01-01T00:01:40.000000+00:00: the samples of " +
                           path(policy == "first" ? "a.mefd" : "b.mefd") + " are kept (5120 of "),
                  std::string::npos)
            << out;
        const auto merged = rows(path(csv));
        EXPECT_EQ(merged.size(), a.size() + b.size() - 20 * 256);
        std::size_t fromA = 0, fromB = 0;
        for (const auto& [time, values] : merged) {
            const bool inA = a.count(time), inB = b.count(time);
            const bool takeA = inA && (policy == "first" || !inB);
            EXPECT_EQ(values, takeA ? a.at(time) : b.at(time)) << policy << " " << time;
            ++(takeA ? fromA : fromB);
        }
        EXPECT_EQ(fromA, policy == "first" ? a.size() : a.size() - 20 * 256);
    }
}

TEST_F(CliMerge, StackPutsChannelsSideBySideAtTheirOwnRates)
{
    synth("eeg.mefd", "--no-gaps");
    std::string out;
    ASSERT_EQ(
        runCli("synth " + path("ecg.mefd") + " --channels 1 --hours 0.05 --fs 200 --seed 4 --no-gaps --start +30", out),
        0)
        << out;
    ASSERT_EQ(runCli("merge --mode stack " + path("eeg.mefd") + " " + path("ecg.mefd") + " " + path("s.edf"), out), 0)
        << out;
    EXPECT_NE(out.find("is written as \"ecg:ch001\""), std::string::npos) << out;
    ASSERT_EQ(runCli("info --json " + path("s.edf"), out), 0) << out;
    const auto info = nlohmann::json::parse(out);
    std::vector<std::string> names;
    for (const auto& c : info["channels"]) names.push_back(c["name"]);
    EXPECT_EQ(names, (std::vector<std::string>{"eeg:ch001", "ch002", "ch003", "ecg:ch001"}));
    EXPECT_EQ(info["channels"][3]["fs"], 200.0);
    EXPECT_EQ(info["channels"][0]["fs"], 256.0);
    // CSV needs one rate; --overlap is for concat.
    EXPECT_EQ(runCli("merge --mode stack " + path("eeg.mefd") + " " + path("ecg.mefd") + " " + path("s.csv"), out), 2);
    EXPECT_NE(out.find("have different sampling rates"), std::string::npos) << out;
    EXPECT_EQ(
        runCli("merge --mode stack --overlap last " + path("eeg.mefd") + " " + path("ecg.mefd") + " " + path("t.edf"),
               out),
        2);
    EXPECT_EQ(out, "longview-cli: --overlap applies to --mode concat (stacked channels do not overlap)\n");
}

TEST_F(CliMerge, DryRunPrintsTheTimeLineAndWritesNothing)
{
    synth("orig.mefd", "--no-gaps", "0.02");
    convert("orig.mefd", "a.mefd", "--end +30");
    convert("orig.mefd", "b.mefd", "--start +50");           // a gap from 30 s to 50 s
    convert("orig.mefd", "c.mefd", "--start +60 --end +65"); // inside b
    std::string out;
    const std::string inputs = path("a.mefd") + " " + path("b.mefd") + " " + path("c.mefd") + " ";
    EXPECT_EQ(runCli("merge --dry-run --json " + inputs + path("m.mefd"), out), 3); // the overlap is refused
    EXPECT_FALSE(fs::exists(path("m.mefd")));
    const std::size_t brace = out.find('{');
    ASSERT_NE(brace, std::string::npos) << out;
    auto plan = nlohmann::json::parse(out.substr(brace, out.rfind('}') - brace + 1));
    EXPECT_EQ(plan["ok"], false);
    EXPECT_EQ(plan["mode"], "concat");
    EXPECT_EQ(plan["overlap"], "error");
    EXPECT_EQ(plan["inputs"].size(), 3u);
    constexpr std::int64_t t0 = 1'735'689'600'000'000, s = 1'000'000;
    const auto& ch = plan["channels"][0];
    EXPECT_EQ(ch["gaps"], nlohmann::json::array({nlohmann::json::array({t0 + 30 * s, t0 + 50 * s})}));
    EXPECT_EQ(ch["overlaps"][0]["inputs"], nlohmann::json::array({1, 2}));
    EXPECT_EQ(ch["overlaps"][0]["start_uutc"], t0 + 60 * s);
    EXPECT_EQ(ch["overlaps"][0]["end_uutc"], t0 + 65 * s);
    EXPECT_TRUE(ch["overlaps"][0]["kept"].is_null());

    ASSERT_EQ(runCli("merge --dry-run --json --overlap last " + inputs + path("m.mefd"), out), 0) << out;
    plan = nlohmann::json::parse(out);
    EXPECT_EQ(plan["ok"], true);
    const auto& parts = plan["channels"][0]["parts"];
    ASSERT_EQ(parts.size(), 4u); // a, b up to c, c, the rest of b
    const std::int64_t want[4][3] = {{0, 0, 30}, {1, 50, 60}, {2, 60, 65}, {1, 65, 72}};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(parts[i]["input"], want[i][0]) << i;
        EXPECT_EQ(parts[i]["start_uutc"], t0 + want[i][1] * s) << i;
        EXPECT_EQ(parts[i]["end_uutc"], t0 + want[i][2] * s) << i;
    }
    EXPECT_EQ(plan["channels"][0]["overlaps"][0]["kept"], 2);
    EXPECT_EQ(plan["channels"][0]["overlaps"][0]["dropped_samples"], 5 * 256);

    ASSERT_EQ(runCli("merge --dry-run " + path("a.mefd") + " " + path("b.mefd") + " " + path("m.mefd"), out), 0);
    EXPECT_NE(out.find("merge (concat, overlaps: error) of 2 inputs"), std::string::npos) << out;
    EXPECT_NE(out.find("  gap 2025-01-01T00:00:30.000000+00:00 to 2025-01-01T00:00:50.000000+00:00\n"),
              std::string::npos)
        << out;
    EXPECT_FALSE(fs::exists(path("m.mefd")));
}

// SIGTERM goes through the Ctrl-C handler; SIGINT itself cannot be tested here, since a background job (and
// whatever runs these tests in the background) inherits SIGINT ignored, which would hide a missing handler.
TEST_F(CliMerge, InterruptCancelsWithStatus130AndLeavesNothing)
{
    synth("orig.mefd", "--no-gaps", "1");
    convert("orig.mefd", "a.mefd", "--end +1800");
    convert("orig.mefd", "b.mefd", "--start +1800");
    const auto writing = [&] { // SIGTERM once the merge writes (its temporary exists), not after a guessed delay
        for (const auto& e : fs::directory_iterator(m_dir.path()))
            if (e.path().filename().string().rfind("m.csv.tmp-", 0) == 0) return true;
        return false;
    };
    const auto r = test::runChildKilledWhen(
        {LONGVIEW_CLI, "merge", "--threads", "1", path("a.mefd"), path("b.mefd"), path("m.csv")}, writing, SIGTERM);
    EXPECT_EQ(r.exitStatus, 130) << r.output;
    EXPECT_NE(r.output.find("cancelled"), std::string::npos) << r.output;
    for (const auto& e : fs::directory_iterator(m_dir.path()))
        EXPECT_NE(e.path().filename().string().rfind("m.csv", 0), 0u) << e.path();
}

TEST_F(CliMerge, UsageErrorsAndHelp)
{
    synth("orig.mefd", "--no-gaps", "0.01");
    convert("orig.mefd", "a.mefd", "--end +10");
    convert("orig.mefd", "b.mefd", "--start +10");
    const std::string parts = path("a.mefd") + " " + path("b.mefd") + " ";
    std::string out;
    EXPECT_EQ(runCli("merge " + path("orig.mefd") + " " + path("m.mefd"), out), 2) << out; // one input
    EXPECT_EQ(runCli("merge " + parts + path("m.txt"), out), 2) << out;
    EXPECT_NE(out.find("cannot tell the output format"), std::string::npos) << out;
    EXPECT_EQ(runCli("merge " + path("none.mefd") + " " + path("orig.mefd") + " " + path("m.csv"), out), 3) << out;
    EXPECT_NE(out.find(path("none.mefd") + ": no such file or directory"), std::string::npos) << out;
    EXPECT_EQ(runCli("merge " + parts + path("orig.mefd"), out), 2) << out; // exists
    EXPECT_NE(out.find("the output already exists"), std::string::npos) << out;
    EXPECT_EQ(runCli("merge --channels nope " + parts + path("x.csv"), out), 2) << out;
    EXPECT_NE(out.find("no channel \"nope\""), std::string::npos) << out;
    EXPECT_EQ(runCli("merge " + path("orig.mefd") + " " + path("orig.mefd") + " " + path("x.csv"), out), 3)
        << out; // one file twice overlaps itself
    ASSERT_EQ(runCli("merge --channels ch002 --start +5 --end +15 " + parts + path("x.csv"), out), 0) << out;
    const std::string selected = text(path("x.csv"));
    EXPECT_EQ(std::count(selected.begin(), selected.end(), '\n'), 2 + 10 * 256);
    ASSERT_EQ(runCli("--help", out), 0);
    EXPECT_NE(out.find("merge"), std::string::npos) << out;
    ASSERT_EQ(runCli("merge --help", out), 0);
    for (const char* option : {"--channels", "--start", "--end", "--password", "--gaps", "--threads", "--raw"})
        EXPECT_NE(out.find(option), std::string::npos) << option;
}

} // namespace
} // namespace lv::cli
