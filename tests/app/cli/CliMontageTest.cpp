// longview-cli convert --montage on a real EDF: the double banana and an EDFbrowser montage file written as EDF
// equal the sums computed from MNE's reading of the source (montage_check.py, with the montage written out by
// hand here), --channels picks derivations, the output's metadata names the montage, and refusals are in words.
#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace lv::cli {
namespace {

const std::string kStim = (test::testdata() / "edf/test_edf_stim_channel.edf").string();

int runCli(const std::string& args, std::string& out)
{
    return test::run(std::string(LONGVIEW_CLI) + " " + args + " 2>&1", &out);
}

// {"Fp1-F7": [["EEG Fp1", 1], ["EEG F7", -1]], ...} from "Fp1-F7" pairs of the recording's electrode names.
nlohmann::json pairs(const std::vector<std::pair<std::string, std::string>>& list)
{
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [a, b] : list) j[a + "-" + b] = {{"EEG " + a, 1}, {"EEG " + b, -1}};
    return j;
}

nlohmann::json check(const std::string& output, const nlohmann::json& expected, const test::TempDir& dir)
{
    const std::string file = (dir.path() / "expected.json").string();
    std::ofstream(file) << expected.dump();
    std::string text;
    EXPECT_EQ(
        test::run("/usr/bin/python3 " + std::string(LONGVIEW_MONTAGE_CHECK) + " " + kStim + " " + output + " " + file,
                  &text),
        0)
        << text;
    return nlohmann::json::parse(text, nullptr, false);
}

TEST(CliMontage, DoubleBananaEqualsTheHandWrittenSums)
{
    test::TempDir dir;
    const std::string out = (dir.path() / "banana.edf").string();
    std::string text;
    ASSERT_EQ(runCli("convert " + kStim + " " + out + " --montage double-banana", text), 0) << text;
    const nlohmann::json expected = pairs({{"Fp1", "F7"},
                                           {"F7", "T3"},
                                           {"T3", "T5"},
                                           {"T5", "O1"},
                                           {"Fp2", "F8"},
                                           {"F8", "T4"},
                                           {"T4", "T6"},
                                           {"T6", "O2"},
                                           {"Fp1", "F3"},
                                           {"F3", "C3"},
                                           {"C3", "P3"},
                                           {"P3", "O1"},
                                           {"Fp2", "F4"},
                                           {"F4", "C4"},
                                           {"C4", "P4"},
                                           {"P4", "O2"},
                                           {"Fz", "Cz"},
                                           {"Cz", "Pz"}});
    const nlohmann::json result = check(out, expected, dir);
    ASSERT_TRUE(result.is_object());
    EXPECT_EQ(result.at("channels").size(), 18u);
    EXPECT_EQ(result.at("channels").at(1), "F7-T3");
    for (const auto& [name, worst] : result.at("worst").items()) {
        ASSERT_FALSE(worst.is_null()) << name << " is not in the output";
        EXPECT_LE(worst.get<double>(), 1.0) << name;
    }
    EXPECT_EQ(test::run(LONGVIEW_TESTDATA "/../tools/edfbrowser-check '" + out + "' 2>&1", &text), 0) << text;
}

TEST(CliMontage, AnEdfBrowserMontageFileIsReadWithItsNotes)
{
    test::TempDir dir;
    const std::string out = (dir.path() / "mtg.edf").string();
    std::string text;
    ASSERT_EQ(
        runCli("convert " + kStim + " " + out + " --montage " + LONGVIEW_MONTAGE_FIXTURES + "/bipolar_filters.mtg",
               text),
        0)
        << text;
    EXPECT_NE(text.find("montage: Cz avg: a Chebyshev filter is not imported (Butterworth only)"), std::string::npos)
        << text;
    const nlohmann::json expected = {{"EEG Fp1-EEG F7", {{"EEG Fp1", 1}, {"EEG F7", -1}}},
                                     {"Cz avg", {{"EEG Cz", 2}, {"EEG C3", -1}, {"EEG C4", -1}}},
                                     {"ECG ECG1", {{"ECG ECG1", 1}}}};
    const nlohmann::json result = check(out, expected, dir);
    ASSERT_TRUE(result.is_object());
    EXPECT_EQ(result.at("channels"), nlohmann::json({"EEG Fp1-EEG F7", "Cz avg", "ECG ECG1"}));
    for (const auto& [name, worst] : result.at("worst").items()) EXPECT_LE(worst.get<double>(), 1.0) << name;
}

TEST(CliMontage, ChannelsPickDerivationsAndTheMetadataNamesTheMontage)
{
    test::TempDir dir;
    const std::string csv = (dir.path() / "t.csv").string();
    std::string text;
    ASSERT_EQ(runCli("convert " + kStim + " " + csv + " --montage transverse --channels \"Fp1-Fp2,O1-O2\"", text), 0)
        << text;
    const auto side = nlohmann::json::parse(test::readBytes((dir.path() / "t.json").string()));
    EXPECT_EQ(side.at("source").at("processing"), "montage Transverse bipolar (18 derivations)");
    ASSERT_EQ(side.at("channels").size(), 2u);
    EXPECT_EQ(side.at("channels").at(1).at("name"), "O1-O2");
}

TEST(CliMontage, RefusalsAreInWords)
{
    test::TempDir dir;
    std::string text;
    const std::string out = (dir.path() / "x.edf").string();
    const std::string bad = (dir.path() / "bad.json").string();
    std::ofstream(bad)
        << R"({"format": "longview-montage", "version": 1, "derivations": [)"
        << R"({"name": "x", "terms": [{"channel": "EEG Fp1"}, {"channel": "DIG DTRIG", "weight": -1}]}]})";
    EXPECT_EQ(runCli("convert " + kStim + " " + out + " --montage " + bad, text), 0) << text; // same rate: fine
    const std::string missing = (dir.path() / "missing.json").string();
    std::ofstream(missing) << R"({"format": "longview-montage", "version": 1, "derivations": [)"
                           << R"({"name": "x", "terms": [{"channel": "Fp1"}]}]})";
    const std::string out2 = (dir.path() / "y.edf").string();
    EXPECT_EQ(runCli("convert " + kStim + " " + out2 + " --montage " + missing, text), 2) << text;
    EXPECT_NE(text.find("derivation x: the recording has no channel named Fp1"), std::string::npos) << text;
    EXPECT_FALSE(std::filesystem::exists(out2));
    EXPECT_EQ(runCli("convert " + kStim + " " + out2 + " --montage banana", text), 2) << text;
    EXPECT_NE(text.find("montage \"banana\" is neither a file nor one of double-banana, transverse, average, "
                        "referential"),
              std::string::npos)
        << text;
}

} // namespace
} // namespace lv::cli
