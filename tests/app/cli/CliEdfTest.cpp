// longview-cli on EDF/BDF: info (format, offset, annotations, warnings), CSV export, EDF/BDF output options.
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

namespace lv::cli {
namespace {

std::string ref(const std::string& rel) { return (test::testdata() / rel).string(); }

int runCli(const std::string& args, std::string& out)
{
    return test::run(std::string(LONGVIEW_CLI) + " " + args + " 2>&1", &out);
}

TEST(CliEdf, InfoShowsFormatScaleAnnotationsAndWarnings)
{
    std::string out;
    ASSERT_EQ(runCli("info --json " + ref("edf/ref_edflib.edf"), out), 0) << out;
    const auto j = nlohmann::json::parse(out);
    EXPECT_EQ(j.at("format"), "EDF+C");
    EXPECT_EQ(j.at("start_uutc"), 1709288430250000); // 10:20:30 + the first record's 0.25 s
    EXPECT_EQ(j.at("channels").size(), 2u);
    EXPECT_TRUE(j.at("channels").at(0).contains("offset"));
    ASSERT_EQ(j.at("annotations").size(), 2u);
    EXPECT_EQ(j.at("annotations").at(0).at("text"), "Seizure onset \xc3\xa9");
    ASSERT_EQ(runCli("info " + ref("edf/test.bdf"), out), 0);
    EXPECT_NE(out.find("warning: numbers not left-aligned in the header"), std::string::npos) << out;
    ASSERT_EQ(runCli("info " + ref("edf/test_generator.edf"), out), 0);
    EXPECT_NE(out.find("  subject   abcxyz99\n  name      Hans Muller\n  sex       M\n  born      1969-06-30\n"
                       "  admin     Dr. X\n  technician Mr. Spotty\n  equipment test generator\n"),
              std::string::npos)
        << out;
    ASSERT_EQ(runCli("info --json " + ref("edf/test_generator.edf"), out), 0);
    EXPECT_EQ(nlohmann::json::parse(out).at("subject").at("birthdate"), "1969-06-30");
}

// Channel types from the labels of reference files: EDF+ type words, 10-20 names, BioSemi's Status.
TEST(CliEdf, InfoGuessesChannelTypes)
{
    const auto types = [](const std::string& file) {
        std::string out;
        EXPECT_EQ(test::run(std::string(LONGVIEW_CLI) + " info --json " + ref(file) + " 2>/dev/null", &out), 0);
        std::map<std::string, std::string> byName;
        const auto info = nlohmann::json::parse(out); // kept: the loop refers into it
        for (const auto& c : info.at("channels"))
            byName[c.at("name").get<std::string>()] = c.at("type").get<std::string>();
        return byName;
    };
    const auto stim = types("edf/test_edf_stim_channel.edf");
    EXPECT_EQ(stim.at("EEG Fp1"), "EEG");
    EXPECT_EQ(stim.at("EOG VEOG_I"), "EOG");
    EXPECT_EQ(stim.at("ECG ECG1"), "ECG");
    EXPECT_EQ(stim.at("DIG DTRIG"), "Trigger");
    EXPECT_EQ(stim.at("REF_EEG REF_EEG"), "EEG");
    const auto biosemi = types("edf/test.bdf");
    EXPECT_EQ(biosemi.at("Status"), "Trigger");
    EXPECT_EQ(biosemi.at("IEOG"), "EOG");
    EXPECT_EQ(biosemi.at("AF7"), "EEG");
    EXPECT_EQ(types("edf/ref_edflib.edf").at("ECG"), "ECG");
}

TEST(CliEdf, ConvertToCsvEdfAndBdf)
{
    test::TempDir dir;
    std::string out;
    const std::string csv = (dir.path() / "a.csv").string();
    ASSERT_EQ(runCli("convert " + ref("edf/test_subsecond.edf") + " " + csv, out), 0) << out;
    EXPECT_GT(test::readBytes(csv).size(), 1000u);
    const std::string split = (dir.path() / "s.edf").string();
    ASSERT_EQ(runCli("convert " + ref("mef3/legacy/nan_gap_long.mefd") + " " + split + " --gaps split", out), 0) << out;
    EXPECT_NE(out.find("s_1.edf"), std::string::npos) << out;
    EXPECT_NE(out.find("s_2.edf"), std::string::npos) << out;
    const std::string bdf = (dir.path() / "f.bdf").string();
    ASSERT_EQ(
        runCli("convert " + ref("mef3/legacy/nan_gap_long.mefd") + " " + bdf + " --gaps fill --fill-value 0", out), 0)
        << out;
    ASSERT_EQ(runCli("info --json " + bdf, out), 0) << out;
    EXPECT_EQ(nlohmann::json::parse(out).at("format"), "BDF+C");
    EXPECT_EQ(runCli("convert " + ref("mef3/legacy/nan_gap_long.mefd") + " " + bdf, out), 2)
        << out; // exists, as for .mefd
    EXPECT_EQ(runCli("convert " + ref("mef3/legacy/nan_gap_long.mefd") + " x.edf --gaps sometimes", out), 2);
}

TEST(CliEdf, ARecordingWithoutSamplesIsTheFilesDoingNotTheOptions)
{
    test::TempDir dir;
    auto bytes = test::readBytes(test::testdata() / "edf/test_generator.edf");
    std::copy_n("0       ", 8, bytes.begin() + 236); // number of data records
    bytes.resize(256 + 256 * 12);
    const std::string empty = (dir.path() / "empty.edf").string();
    test::writeBytes(empty, bytes);
    std::string out;
    EXPECT_EQ(runCli("convert " + empty + " " + (dir.path() / "out.edf").string(), out), 3) << out;
    EXPECT_EQ(out, "longview-cli: " + empty + ": the recording holds no samples\n");
    const std::string ranged = "convert " + ref("edf/test_generator.edf") + " " + (dir.path() / "r.edf").string();
    EXPECT_EQ(runCli(ranged + " --start 2000s --end 2001s", out), 2) << out;
}

} // namespace
} // namespace lv::cli
