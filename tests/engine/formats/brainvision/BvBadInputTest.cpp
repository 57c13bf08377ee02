// Broken BrainVision file sets: each gives an error naming the file and the problem (and the line), or opens with a
// warning that says what was left out; never a crash or a silent wrong value.
#include "BvTestSupport.h"

#include "formats/brainvision/BvMarkers.h"
#include "formats/brainvision/BvRecording.h"

#include <gtest/gtest.h>

#include <fstream>

namespace lv::formats::brainvision {
namespace {

namespace fs = std::filesystem;

// A copy of a reference case whose header (or marker file) has `from` replaced by `to`.
class Edited {
public:
    explicit Edited(const std::string& name) : m_name(name)
    {
        lv::test::copyTree(test::referenceFolder() / name, m_dir.path());
    }
    std::string header() const { return (m_dir.path() / (m_name + ".vhdr")).string(); }
    fs::path file(const std::string& ext) const { return m_dir.path() / (m_name + ext); }
    void replace(const std::string& ext, const std::string& from, const std::string& to) const
    {
        const auto bytes = lv::test::readBytes(file(ext));
        std::string text(bytes.begin(), bytes.end());
        const auto at = text.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        text.replace(at, from.size(), to);
        lv::test::writeBytes(file(ext), std::vector<std::uint8_t>(text.begin(), text.end()));
    }

private:
    std::string m_name;
    lv::test::TempDir m_dir;
};

core::Error openError(const std::string& header)
{
    auto r = openBrainVision(header);
    EXPECT_FALSE(r.ok());
    return r.ok() ? core::Error{} : r.error();
}

bool hasWarning(const core::RecordingInfo& info, const std::string& text)
{
    for (const std::string& w : info.warnings)
        if (w.find(text) != std::string::npos) return true;
    ADD_FAILURE() << "no warning \"" << text << "\" among " << info.warnings.size();
    return false;
}

TEST(BvBadInput, ANotHeaderFileIsNamedWithItsFirstLine)
{
    lv::test::TempDir dir;
    const fs::path p = dir.path() / "x.vhdr";
    lv::test::writeBytes(p, {'h', 'e', 'l', 'l', 'o', '\n'});
    const core::Error e = openError(p.string());
    EXPECT_EQ(e.code, core::ErrorCode::Corrupt);
    EXPECT_EQ(e.describe(), p.string() + ": line 1: not a BrainVision header: the first line is \"hello\", not "
                                         "\"BrainVision Data Exchange Header File Version 1.0\"");
}

TEST(BvBadInput, UnreadableFieldsAreErrorsNamingTheirLine)
{
    const struct {
        std::string from, to, message;
        core::ErrorCode code;
    } cases[] = {
        {"BinaryFormat=INT_16", "BinaryFormat=UINT_16",
         "line 16: BinaryFormat=UINT_16 is not read (INT_16, INT_32 or IEEE_FLOAT_32)", core::ErrorCode::Unsupported},
        {"DataFormat=BINARY", "DataFormat=ASCII",
         "line 8: DataFormat=ASCII is not read (only BINARY data; ASCII is not supported)",
         core::ErrorCode::Unsupported},
        {"SamplingInterval=2000", "SamplingInterval=0",
         "line 13: SamplingInterval=0 is not a positive number of microseconds", core::ErrorCode::Corrupt},
        {"SamplingInterval=2000", "SamplingInterval=1e-300",
         "line 13: SamplingInterval=1e-300: sampling rate 1e+306 Hz is outside [1e-06, 1000000] Hz",
         core::ErrorCode::Corrupt},
        {"NumberOfChannels=4", "NumberOfChannels=5",
         "[Channel Infos] has no Ch5 of the 5 channels NumberOfChannels announces", core::ErrorCode::Corrupt},
        {"NumberOfChannels=4", "NumberOfChannels=99999999999",
         "line 11: NumberOfChannels=99999999999 is not a count from 1 to 65536", core::ErrorCode::Corrupt},
        {"Ch2=Fp2,,0.1,", "Ch2=Fp2,,zero,", "line 22: Ch2: resolution \"zero\" is not a non-zero number",
         core::ErrorCode::Corrupt},
        {"Ch3=Cz", "Ch2=Cz", "line 23: Ch2 is given twice", core::ErrorCode::Corrupt},
        {"DataOrientation=MULTIPLEXED", "DataOrientation=DIAGONAL",
         "line 10: DataOrientation=DIAGONAL is neither MULTIPLEXED nor VECTORIZED", core::ErrorCode::Corrupt},
        {"DataFile=mux_int16.eeg", "DataFile=", "no DataFile in [Common Infos]: the header is incomplete",
         core::ErrorCode::Corrupt},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.to);
        Edited edited("mux_int16");
        edited.replace(".vhdr", c.from, c.to);
        const core::Error e = openError(edited.header());
        EXPECT_EQ(e.code, c.code);
        EXPECT_EQ(e.path, edited.header());
        EXPECT_EQ(e.message, c.message);
    }
}

TEST(BvBadInput, AMissingDataFileIsNamedWithTheHeader)
{
    Edited edited("mux_int16");
    fs::remove(edited.file(".eeg"));
    const core::Error e = openError(edited.header());
    EXPECT_EQ(e.code, core::ErrorCode::NotFound);
    EXPECT_EQ(e.path, edited.header());
    EXPECT_TRUE(e.message.starts_with("the data file mux_int16.eeg the header names: ")) << e.message;
}

TEST(BvBadInput, ATruncatedDataFileReadsItsWholeDataPointsWithAWarning)
{
    Edited edited("mux_int16");
    auto bytes = lv::test::readBytes(edited.file(".eeg"));
    bytes.resize(bytes.size() - 3);
    lv::test::writeBytes(edited.file(".eeg"), bytes);
    auto r = openBrainVision(edited.header());
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ((*r)->dataPoints(), 2999);
    EXPECT_EQ((*r)->info().channels[0].sampleCount, 2999);
    hasWarning((*r)->info(), "mux_int16.eeg ends inside a data point (23997 bytes is not a multiple of 8): its last 5 "
                             "bytes are not read");
    const std::vector<std::vector<double>> values = test::dataPointValues(**r);
    const nlohmann::json truth = test::referenceTruth("mux_int16");
    EXPECT_EQ(values[3][2998], truth["channels"][3]["values"][2998].get<double>());
}

TEST(BvBadInput, MissingOrBrokenMarkersOpenWithoutDatesAndSaySo)
{
    Edited missing("mux_int16");
    fs::remove(missing.file(".vmrk"));
    auto r = openBrainVision(missing.header());
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_FALSE((*r)->info().timesKnown);
    EXPECT_EQ((*r)->info().start, 0);
    EXPECT_TRUE((*r)->info().annotations.empty());
    hasWarning((*r)->info(), "the marker file mux_int16.vmrk cannot be read (");
    hasWarning((*r)->info(), "no \"New Segment\" marker gives a date: times are relative to the first data point");

    Edited broken("mux_int16");
    broken.replace(".vmrk", "Mk2=Stimulus,S  1,101,1,0", "Mk2=Stimulus,S  1,-5,1,0");
    broken.replace(".vmrk", "20240305101530123456", "20241305101530123456");
    auto b = openBrainVision(broken.header());
    ASSERT_TRUE(b.ok()) << b.error().describe();
    EXPECT_EQ((*b)->info().annotations.size(), 2u);
    hasWarning((*b)->info(), "marker file line 11: Mk2 has no position from 1 on: left out");
    hasWarning((*b)->info(), "marker file line 10: Mk1 has a date \"20241305101530123456\" that is not "
                             "YYYYMMDDhhmmssuuuuuu: ignored");
    EXPECT_FALSE((*b)->info().timesKnown);
}

TEST(BvBadInput, AMarkerOnAChannelThatDoesNotExistIsOnAllChannels)
{
    Edited edited("mux_int16");
    edited.replace(".vmrk", "eyes\\1 closed,2200,1,3", "eyes\\1 closed,2200,1,9");
    auto r = openBrainVision(edited.header());
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_FALSE((*r)->info().annotations.back().channel);
    hasWarning((*r)->info(), "marker file line 13: channel 9 does not exist: the marker is read as on all channels");
}

TEST(BvMarkerDate, TwentyDigitsAreUtcMicrosecondsAndOthersAreNoDate)
{
    EXPECT_EQ(parseMarkerDate("19700101000000000001"), core::Uutc{1});
    EXPECT_EQ(parseMarkerDate("20240229235959999999"), core::Uutc{1709251199999999});
    EXPECT_EQ(formatMarkerDate(1709251199999999), "20240229235959999999");
    EXPECT_EQ(formatMarkerDate(-1), "19691231235959999999");
    EXPECT_FALSE(parseMarkerDate("00000000000000000000"));
    EXPECT_FALSE(parseMarkerDate("2024022923595999999"));
    EXPECT_FALSE(parseMarkerDate("2024022923595999999x"));
    EXPECT_FALSE(parseMarkerDate("20240229245959999999"));
}

TEST(BvMarkers, Latin1MarkerTextsAreDecodedAsTheirCodePageSays)
{
    const std::string text =
        "Brain Vision Data Exchange Marker File, Version 1.0\r\n[Common Infos]\r\nCodepage=ANSI\r\n"
        "[Marker Infos]\r\nMk1=Comment,S\xFC"
        "d\\1 Nord,12,3,0\r\n";
    std::vector<std::string> warnings;
    auto m =
        parseMarkers(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), "m.vmrk", warnings);
    ASSERT_TRUE(m.ok());
    ASSERT_EQ(m->size(), 1u);
    EXPECT_EQ((*m)[0].description, "S\xC3\xBC"
                                   "d, Nord");
    EXPECT_EQ((*m)[0].position, 12);
    EXPECT_EQ((*m)[0].size, 3);
    EXPECT_TRUE(warnings.empty());
}

} // namespace
} // namespace lv::formats::brainvision
