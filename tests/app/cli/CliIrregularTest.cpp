// longview-cli on channels sampled at irregular times: info marks them, a grid output refuses them without
// --resample (exit 2, naming the channel and the option), --hold needs --resample, and a resampled EDF+ is written
// at the rate asked, saying what was done.
#include "formats/RecordingOpener.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

std::string asap2() { return LONGVIEW_TESTDATA "/mdf4/ASAP2_Demo_V171.mf4"; }

std::string cli(const std::string& arguments, int* status)
{
    std::string said;
    *status = test::run(std::string(LONGVIEW_CLI) + " " + arguments + " 2>&1", &said);
    return said;
}

} // namespace

TEST(CliIrregular, InfoMarksIrregularChannelsAndTheirGroup)
{
    int status = 0;
    const std::string text = cli("info '" + asap2() + "'", &status);
    EXPECT_EQ(status, 0) << text;
    EXPECT_NE(text.find("~: sampled at irregular times, the median rate"), std::string::npos) << text;
    std::string json;
    ASSERT_EQ(test::run(std::string(LONGVIEW_CLI) + " info --json '" + asap2() + "' 2>/dev/null", &json), 0);
    const auto j = nlohmann::json::parse(json);
    std::size_t irregular = 0;
    for (const auto& c : j["channels"]) {
        if (!c["irregular"].get<bool>()) continue;
        ++irregular;
        EXPECT_EQ(c["group"].get<std::string>().rfind("channel group ", 0), 0u) << c.dump();
        EXPECT_EQ(c["samples"], c["stored_samples"]);
    }
    EXPECT_EQ(irregular, 33u);
}

TEST(CliIrregular, AGridOutputNeedsResampleAndHoldNeedsResample)
{
    test::TempDir dir;
    const std::string out = (dir.path() / "a.edf").string();
    const std::string channels = " --channels ASAM.M.SCALAR.SWORD.IDENTICAL";
    int status = 0;
    std::string said = cli("convert '" + asap2() + "' '" + out + "'" + channels, &status);
    EXPECT_EQ(status, 2) << said;
    EXPECT_NE(said.find("channel ASAM.M.SCALAR.SWORD.IDENTICAL is sampled at irregular times and EDF+ (16-bit) needs "
                        "a sampling grid: give --resample RATE (and --hold MAX_GAP), or leave the channel out"),
              std::string::npos)
        << said;
    EXPECT_FALSE(fs::exists(out));
    said = cli("convert '" + asap2() + "' '" + out + "'" + channels + " --hold 0.1", &status);
    EXPECT_NE(status, 0) << said;
    EXPECT_NE(said.find("--hold requires --resample"), std::string::npos) << said;
    EXPECT_FALSE(fs::exists(out));

    said = cli("convert '" + asap2() + "' '" + out + "'" + channels + " --resample 500 --hold 0.02", &status);
    ASSERT_EQ(status, 0) << said;
    EXPECT_NE(said.find("channel ASAM.M.SCALAR.SWORD.IDENTICAL: sampled at irregular times (median 1000 Hz), "
                        "resampled to 500 Hz, each value held at most 0.02 s and never across a longer gap"),
              std::string::npos)
        << said;
    auto edf = formats::openRecording({out, "", ""});
    ASSERT_TRUE(edf.ok()) << edf.error().describe();
    ASSERT_EQ((*edf)->info().channels.size(), 1u);
    EXPECT_EQ((*edf)->info().channels[0].fs, 500.0);
}
} // namespace lv::cli
