// longview-cli convert --filter and stats --filter on a real EDF: the output equals scipy.signal's sosfiltfilt of
// what MNE reads from the source (filter_check.py), the prefiltering fields say the filter (as MNE parses them,
// and EDFbrowser's strict loader accepts the file), other formats record it, and a bad spec is refused in words.
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace lv::cli {
namespace {

std::string ref(const std::string& rel) { return (test::testdata() / rel).string(); }

int runCli(const std::string& args, std::string& out)
{
    return test::run(std::string(LONGVIEW_CLI) + " " + args + " 2>&1", &out);
}

TEST(CliFilter, ConvertWritesWhatScipyComputesFromTheSource)
{
    test::TempDir dir;
    const std::string source = ref("edf/test_generator.edf"), out = (dir.path() / "f.edf").string();
    std::string text;
    ASSERT_EQ(runCli("convert " + source + " " + out + " --filter hp=0.5,lp=70,notch=50", text), 0) << text;
    ASSERT_EQ(
        test::run("/usr/bin/python3 " + std::string(LONGVIEW_FILTER_CHECK) + " " + source + " " + out + " 2 0.5 70 50",
                  &text),
        0)
        << text;
    const auto check = nlohmann::json::parse(text);
    EXPECT_EQ(check.at("highpass"), 0.5); // MNE's reading of "HP:0.5Hz LP:70Hz N:50Hz"
    EXPECT_EQ(check.at("lowpass"), 70.0);
    ASSERT_EQ(check.at("channels").size(), 11u);
    for (const auto& [name, c] : check.at("channels").items()) {
        EXPECT_EQ(c.at("samples"), 120000) << name;
        EXPECT_LE(c.at("worst").get<double>(), 1.0) << name << ": beyond half a step of scipy's value";
    }
    // Away from the ends, the 50 Hz sine is gone (below 1 % of its RMS), the 8 Hz one kept (within 1 %).
    const auto& mains = check.at("channels").at("sine 50 Hz");
    EXPECT_LT(mains.at("rms_out").get<double>(), 0.01 * mains.at("rms_in").get<double>());
    const auto& alpha = check.at("channels").at("sine 8 Hz");
    EXPECT_NEAR(alpha.at("rms_out").get<double>(), alpha.at("rms_in").get<double>(),
                0.01 * alpha.at("rms_in").get<double>());
    EXPECT_EQ(test::run(LONGVIEW_TESTDATA "/../tools/edfbrowser-check '" + out + "' 2>&1", &text), 0) << text;
    ASSERT_EQ(runCli("info --json " + out, text), 0) << text;
    // The source's own prefiltering ("pre1") first, then ours.
    EXPECT_EQ(nlohmann::json::parse(text).at("channels").at(0).at("prefilter"), "pre1 HP:0.5Hz LP:70Hz N:50Hz");
}

TEST(CliFilter, OtherFormatsRecordTheFilterInTheirMetadata)
{
    test::TempDir dir;
    const std::string csv = (dir.path() / "f.csv").string();
    std::string text;
    ASSERT_EQ(runCli("convert " + ref("edf/test_generator.edf") + " " + csv + " --channels \"sine 8 Hz\" --end +10 " +
                         "--filter lp=35,order=4",
                     text),
              0)
        << text;
    const auto side = nlohmann::json::parse(test::readBytes((dir.path() / "f.json").string()));
    EXPECT_EQ(side.at("source").at("processing"), "filtered lp=35,order=4 (zero-phase, restarted at every gap)");
    EXPECT_EQ(side.at("channels").at(0).at("prefilter"), "LP:35Hz");
    const std::string mef = (dir.path() / "f.mefd").string();
    ASSERT_EQ(runCli("convert " + ref("edf/test_generator.edf") + " " + mef + " --end +10 --filter hp=1,causal", text),
              0)
        << text;
    ASSERT_EQ(runCli("info --json " + mef, text), 0) << text;
    const std::string description = nlohmann::json::parse(text).at("description");
    EXPECT_NE(description.find("; filtered hp=1,causal (causal, restarted at every gap)"), std::string::npos)
        << description;
}

TEST(CliFilter, StatsReportOnFilteredValues)
{
    std::string text;
    const std::string sine = "stats --json --channels \"sine 50 Hz\" " + ref("edf/test_generator.edf");
    ASSERT_EQ(runCli(sine, text), 0) << text;
    const double raw = nlohmann::json::parse(text).at("channels").at(0).at("std");
    ASSERT_EQ(runCli(sine + " --filter notch=50", text), 0) << text;
    const double notched = nlohmann::json::parse(text).at("channels").at(0).at("std");
    EXPECT_GT(raw, 50.0);
    EXPECT_LT(notched, 0.01 * raw);
}

TEST(CliFilter, ABadSpecOrAnEdgeBeyondTheRateIsRefusedInWords)
{
    std::string text;
    EXPECT_EQ(runCli("stats " + ref("edf/test_generator.edf") + " --filter hp=fast", text), 2) << text;
    EXPECT_NE(text.find("--filter: filter \"hp=fast\": "), std::string::npos) << text;
    test::TempDir dir;
    EXPECT_EQ(
        runCli("convert " + ref("edf/test_generator.edf") + " " + (dir.path() / "x.edf").string() + " --filter lp=150",
               text),
        2)
        << text;
    EXPECT_NE(text.find("channel squarewave: a filter edge at 150 Hz must lie between 0 and half the sample rate "
                        "(100 Hz)"),
              std::string::npos)
        << text;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "x.edf"));
}

} // namespace
} // namespace lv::cli
