// Every reference EDF/BDF file reads to MNE's values within half a quantisation step, with MNE's annotations;
// start times (which MNE 1.3 truncates to the second) against the first record's time-keeping TAL.
#include "EdfTestSupport.h"

#include <cmath>
#include <gtest/gtest.h>

namespace lv::formats::edf {
namespace {

class EdfMne : public ::testing::TestWithParam<std::string> {};

TEST_P(EdfMne, ValuesAnnotationsAndStartMatchMne)
{
    auto recording = openEdf(GetParam());
    ASSERT_TRUE(recording) << recording.error().describe();
    const core::RecordingInfo& info = (*recording)->info();
    const test::MneReading mne = test::readWithMne(GetParam());
    ASSERT_FALSE(mne.meta.is_null());

    const core::Uutc start =
        mne.meta.at("meas_date_us").get<core::Uutc>() + mne.meta.at("first_record_offset_us").get<core::Uutc>();
    EXPECT_EQ(info.start, start);
    const auto& channels = mne.meta.at("channels");
    ASSERT_EQ(info.channels.size(), channels.size());
    const auto ours = test::readAllPhysical(**recording);
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        const core::ChannelInfo& ch = info.channels[c];
        EXPECT_EQ(ch.start, start) << ch.name;
        EXPECT_TRUE(ch.gaps.empty()) << ch.name;
        ASSERT_EQ(ours[c].size(), mne.values[c].size()) << ch.name;
        const double tolerance = std::abs(ch.conversionFactor) / 2;
        std::size_t bad = 0;
        for (std::size_t i = 0; i < ours[c].size(); ++i) {
            const double diff = std::abs(ours[c][i] - mne.values[c][i]);
            if (!(diff <= tolerance + 1e-9 * std::abs(mne.values[c][i])) && ++bad <= 3)
                ADD_FAILURE() << ch.name << " (" << channels[c].at("source") << ") sample " << i << ": " << ours[c][i]
                              << " against " << mne.values[c][i];
        }
        EXPECT_EQ(bad, 0u) << ch.name;
    }
    const auto& annotations = mne.meta.at("annotations");
    ASSERT_EQ(info.annotations.size(), annotations.size());
    for (std::size_t i = 0; i < annotations.size(); ++i) {
        const core::Annotation& a = info.annotations[i];
        // MNE 1.3 counts onsets from the first record's start (it subtracts the time-keeping TAL's onset).
        const double onset = annotations[i].at("onset").get<double>();
        EXPECT_NEAR(static_cast<double>(a.time - info.start), onset * 1e6, 1.0) << a.text;
        EXPECT_NEAR(static_cast<double>(a.durationUs), annotations[i].at("duration").get<double>() * 1e6, 1.0);
        EXPECT_EQ(a.text, annotations[i].at("description").get<std::string>());
        EXPECT_EQ(a.type, "EDFA");
        EXPECT_FALSE(a.channel.has_value());
    }
}

INSTANTIATE_TEST_SUITE_P(Reference, EdfMne, ::testing::ValuesIn(test::referenceFiles()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             std::string name = std::filesystem::path(p.param).filename().string();
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });

TEST(EdfMne, EveryReferenceFileIsCovered)
{
    EXPECT_EQ(test::referenceFiles().size(), 10u); // a new file in testdata/edf joins the suite above
}

} // namespace
} // namespace lv::formats::edf
