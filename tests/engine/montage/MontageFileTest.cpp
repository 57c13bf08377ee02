// Montage files: Longview's JSON round trips every field; bad files are refused naming the file and the problem;
// EDFbrowser's XML (a file written to its format description) imports as sums with the filters Longview has, and
// what it cannot import is said.
#include "montage/MontageFile.h"
#include "montage/EdfBrowserMontage.h"

#include "support/TestSupport.h"

#include <gtest/gtest.h>

using namespace lv;

namespace {

const std::string kFixture = std::string(LONGVIEW_MONTAGE_FIXTURES) + "/bipolar_filters.mtg";

montage::Montage sample()
{
    montage::Montage m;
    m.name = "Banana \xc3\xa9";
    m.derivations.push_back(
        {"Fp1-F7", "uV", "EEG", {{"EEG Fp1", 1}, {"EEG F7", -1}}, {"#0000ff", 70, "hp=0.5,lp=70", false}});
    m.derivations.push_back(
        {"Cz-Avg", "", "", {{"Cz", 2.0 / 3}, {"C3", -1.0 / 3}, {"C4", -1.0 / 3}}, {"", 0, "", true}});
    return m;
}

std::string corruptMessage(const std::string& text)
{
    auto m = montage::parseMontage(text, "/m.json");
    EXPECT_FALSE(m.ok());
    return m.ok() ? std::string() : m.error().message;
}

} // namespace

TEST(MontageFile, RoundTripsEveryField)
{
    test::TempDir dir;
    const std::string file = (dir.path() / "m.json").string();
    ASSERT_TRUE(montage::writeMontageFile(sample(), file).ok());
    auto back = montage::readMontageFile(file);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    EXPECT_EQ(*back, sample());
    ASSERT_TRUE(montage::writeMontageFile(montage::Montage{"other", {}}, file).ok()); // replaces
    EXPECT_EQ(montage::readMontageFile(file)->name, "other");
}

TEST(MontageFile, BadFilesAreRefusedNamingTheProblem)
{
    auto notJson = montage::parseMontage("{\"format\": ", "/m.json");
    ASSERT_FALSE(notJson.ok());
    EXPECT_EQ(notJson.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(notJson.error().path, "/m.json");
    EXPECT_EQ(notJson.error().message, "not a Longview montage file: its JSON does not read");
    EXPECT_EQ(corruptMessage("{\"format\": \"longview-annotations\", \"version\": 1}"),
              "not a Longview montage file: no \"format\": \"longview-montage\"");
    EXPECT_EQ(corruptMessage("{\"format\": \"longview-montage\", \"version\": 2, \"derivations\": []}"),
              "montage file version 2 is not 1 (made by a newer Longview?)");
    const std::string head = "{\"format\": \"longview-montage\", \"version\": 1, \"derivations\": [";
    EXPECT_EQ(corruptMessage(head + "{\"name\": \"a\"}]}"),
              "not a Longview montage file: derivation 1: no \"terms\" (a list of {\"channel\", \"weight\"})");
    EXPECT_EQ(corruptMessage(head + "{\"name\": \"a\", \"terms\": [{\"channel\": \"Fp1\", \"weight\": 0}]}]}"),
              "not a Longview montage file: derivation 1: the weight of Fp1 is 0");
    EXPECT_EQ(corruptMessage(head + "{\"name\": \"a\", \"terms\": [{\"channel\": \"Fp1\"}], \"filter\": \"hp=x\"}]}"),
              "not a Longview montage file: derivation 1: filter \"hp=x\": expected hp, lp, bp, bs, notch, harmonics, "
              "order, q or causal with a number");
    EXPECT_EQ(corruptMessage(head + "{\"terms\": [{\"channel\": \"Fp1\"}]}]}"),
              "not a Longview montage file: derivation 1: no \"name\"");
    EXPECT_EQ(corruptMessage(head + "{\"name\": 5, \"terms\": []}]}"),
              "not a Longview montage file: derivation 1: \"name\" is not a string");
}

TEST(EdfBrowserMontage, ImportsSumsColoursSensitivitiesAndButterworthFilters)
{
    std::vector<core::ChannelInfo> channels(11);
    channels[10].name = "EEG C4";
    auto m = montage::readEdfBrowserMontage(kFixture, channels);
    ASSERT_TRUE(m.ok()) << m.error().describe();
    EXPECT_EQ(m->montage.name, "bipolar_filters");
    ASSERT_EQ(m->montage.derivations.size(), 3u);
    const montage::Derivation& pair = m->montage.derivations[0];
    EXPECT_EQ(pair.name, "EEG Fp1-EEG F7");
    EXPECT_EQ(pair.terms, (std::vector<montage::Term>{{"EEG Fp1", 1}, {"EEG F7", -1}}));
    EXPECT_EQ(pair.display, (montage::DisplaySettings{"#0000ff", 70, "hp=0.5,lp=70,notch=50,q=20", false}));
    const montage::Derivation& avg = m->montage.derivations[1];
    EXPECT_EQ(avg.name, "Cz avg");
    EXPECT_EQ(avg.terms, (std::vector<montage::Term>{{"EEG Cz", 2}, {"EEG C3", -1}, {"EEG C4", -1}}));
    EXPECT_EQ(avg.display, (montage::DisplaySettings{"#ff0000", 50, "", true}));
    EXPECT_EQ(m->montage.derivations[2].name, "ECG ECG1");
    EXPECT_EQ(m->notes, (std::vector<std::string>{"Cz avg: a Chebyshev filter is not imported (Butterworth only)",
                                                  "Cz avg: running-average filters are not imported",
                                                  "ECG ECG1: the heart-rate detection is not imported"}));
}

TEST(EdfBrowserMontage, BadFilesAreRefusedNamingTheProblem)
{
    auto withoutChannels = montage::readEdfBrowserMontage(kFixture);
    ASSERT_FALSE(withoutChannels.ok());
    EXPECT_EQ(withoutChannels.error().message,
              "not an EDFbrowser montage: signal composition 2: signal index 10 names no channel of the recording");
    EXPECT_EQ(withoutChannels.error().path, kFixture);
    auto notXml = montage::parseEdfBrowserMontage("<?xml version=\"1.0\"?>\n<EDFbrowser_montage><signal", "/m.mtg");
    ASSERT_FALSE(notXml.ok());
    EXPECT_EQ(notXml.error().code, core::ErrorCode::Corrupt);
    EXPECT_TRUE(notXml.error().message.starts_with("not an EDFbrowser montage: its XML does not read ("))
        << notXml.error().message;
    auto root = montage::parseEdfBrowserMontage("<?xml version=\"1.0\"?>\n<montage/>", "/m.mtg");
    ASSERT_FALSE(root.ok());
    EXPECT_EQ(root.error().message, "not an EDFbrowser montage: no <EDFbrowser_montage> element");
    auto count = montage::parseEdfBrowserMontage(
        "<EDFbrowser_montage><signalcomposition><num_of_signals>2</num_of_signals><signal><label>A</label>"
        "<factor>1</factor></signal></signalcomposition></EDFbrowser_montage>",
        "/m.mtg");
    ASSERT_FALSE(count.ok());
    EXPECT_EQ(count.error().message, "not an EDFbrowser montage: signal composition 1: num_of_signals says 2 but it "
                                     "holds 1");
    auto factor = montage::parseEdfBrowserMontage(
        "<EDFbrowser_montage><signalcomposition><signal><label>A</label><factor>zero</factor></signal>"
        "</signalcomposition></EDFbrowser_montage>",
        "/m.mtg");
    ASSERT_FALSE(factor.ok());
    EXPECT_EQ(factor.error().message, "not an EDFbrowser montage: signal composition 1: a signal without a factor (a "
                                      "number, not 0)");
}
