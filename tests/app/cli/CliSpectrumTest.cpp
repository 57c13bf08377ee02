// longview-cli spectrum on a real EDF: the densities equal scipy.signal.welch of what MNE reads (spectrum_check.py),
// the band powers sum them, user bands are added, and a bad band or window is refused in words.
#include "support/TestSupport.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace lv::cli {
namespace {

const std::string kGenerator = (test::testdata() / "edf/test_generator.edf").string();

int runCli(const std::string& args, std::string& out)
{
    return test::run(std::string(LONGVIEW_CLI) + " " + args + " 2>&1", &out);
}

TEST(CliSpectrum, DensitiesEqualScipyWelchOfMnesReading)
{
    std::string text;
    ASSERT_EQ(runCli("spectrum --json --channels \"sine 8 Hz\" --band spindle=11-16 " + kGenerator, text), 0) << text;
    const auto ours = nlohmann::json::parse(text).at("channels").at(0);
    EXPECT_EQ(ours.at("segments"), 599); // 600 s in 2 s segments, half overlapping
    ASSERT_EQ(test::run("/usr/bin/python3 " + std::string(LONGVIEW_SPECTRUM_CHECK) + " " + kGenerator +
                            " \"sine 8 Hz\" 400 200",
                        &text),
              0)
        << text;
    const auto ref = nlohmann::json::parse(text);
    ASSERT_EQ(ours.at("psd").size(), ref.at("p").size());
    const double peak = *std::max_element(ref.at("p").begin(), ref.at("p").end());
    for (std::size_t k = 0; k < ref.at("p").size(); ++k) {
        ASSERT_DOUBLE_EQ(ours.at("frequencies").at(k).get<double>(), ref.at("f").at(k).get<double>());
        ASSERT_NEAR(ours.at("psd").at(k).get<double>(), ref.at("p").at(k).get<double>(), 1e-9 * peak) << "bin " << k;
    }
    double alpha = 0;
    for (std::size_t k = 0; k < ref.at("p").size(); ++k) {
        const double f = ref.at("f").at(k);
        if (f >= 8 && f < 13) alpha += ref.at("p").at(k).get<double>() * 0.5;
    }
    EXPECT_NEAR(ours.at("band_power").at("alpha").get<double>(), alpha, 1e-9 * alpha);
    EXPECT_TRUE(ours.at("band_power").contains("spindle"));
    EXPECT_FALSE(ours.at("band_power").contains("gamma") && ours.at("fs").get<double>() < 60);
}

TEST(CliSpectrum, TextNamesThePeakAndTheBands)
{
    std::string text;
    ASSERT_EQ(runCli("spectrum --channels \"sine 50 Hz\" --end +60 " + kGenerator, text), 0) << text;
    EXPECT_NE(text.find("sine 50 Hz: 59 segments over 60 s, peak at 50 Hz\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  gamma        30-80     Hz        4997.71 uV^2\n"), std::string::npos) << text;
}

TEST(CliSpectrum, BadOptionsAreRefusedInWords)
{
    std::string text;
    EXPECT_EQ(runCli("spectrum --band spindle=16-11 " + kGenerator, text), 2) << text;
    EXPECT_NE(text.find("expected NAME=LOW-HIGH with LOW below HIGH, as spindle=11-16"), std::string::npos) << text;
    EXPECT_EQ(runCli("spectrum --window kaiser " + kGenerator, text), 2) << text;
    EXPECT_NE(text.find("window \"kaiser\": expected hann, hamming, blackman or rectangular"), std::string::npos)
        << text;
}

} // namespace
} // namespace lv::cli
