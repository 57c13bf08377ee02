// Absurd but CRC-valid .tmet fields, RED block headers and index sample counts: refused with file, field, offset
// and value (or, where the damage is one block's, a warning and a gap), by the reader and by validate alike.
#include "support/MefPatch.h"
#include "support/TestSupport.h"

#include "core/LittleEndian.h"
#include "core/Recording.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/UniversalHeader.h"
#include "formats/mef3/Validator.h"

#include <functional>
#include <gtest/gtest.h>
#include <limits>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;

class FieldChecks : public test::MeflibRtoCopy {
protected:
    core::Result<std::unique_ptr<MefRecording>> open() const { return openMef3(session.string(), {}); }
    // The open refuses, and validate says exactly that.
    void expectRefused(std::int64_t offset, const std::string& message, const std::string& ext = "tmet")
    {
        auto r = open();
        ASSERT_FALSE(r.ok()) << message;
        EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
        EXPECT_EQ(r.error().path, segmentFile(ext).string());
        EXPECT_EQ(r.error().offset, offset);
        EXPECT_EQ(r.error().message, message);
        const std::vector<std::string> expected = {segmentFile(ext).string() + " @" + std::to_string(offset) + ": " +
                                                   message};
        EXPECT_EQ(problems(), expected);
    }
};

TEST_F(FieldChecks, AbsurdConversionFactorsAreRefusedWithFieldOffsetAndValue)
{
    const double infinity = std::numeric_limits<double>::infinity();
    for (const auto& [factor, text] :
         {std::pair{std::nan(""), "nan"}, std::pair{infinity, "inf"}, std::pair{1e300, "1e+300"},
          std::pair{-1e31, "-1e+31"}, std::pair{1e-300, "1e-300"}}) {
        patch("tmet", 8760, factor);
        expectRefused(8760, std::string("units conversion factor ") + text +
                                " is not finite or beyond 1e30 in magnitude (or below 1e-30)");
    }
}

TEST_F(FieldChecks, ANegativeFactorIsReadAndZeroIsReadAsOneWithAWarning)
{
    patch("tmet", 8760, -0.1);
    auto negative = open();
    ASSERT_TRUE(negative.ok()) << negative.error().describe();
    EXPECT_EQ((*negative)->info().channels[0].conversionFactor, -0.1);
    EXPECT_TRUE((*negative)->info().warnings.empty());
    EXPECT_TRUE(problems().empty());

    patch("tmet", 8760, 0.0);
    auto zero = open();
    ASSERT_TRUE(zero.ok()) << zero.error().describe();
    EXPECT_EQ((*zero)->info().channels[0].conversionFactor, 1.0);
    const std::string note = "units conversion factor 0 (unknown): values are given as stored (factor 1)";
    const std::vector<std::string> warnings = {segmentFile("tmet").string() + ": " + note};
    EXPECT_EQ((*zero)->info().warnings, warnings);
    const std::vector<std::string> found = {segmentFile("tmet").string() + " @8760: " + note};
    EXPECT_EQ(problems(), found);
}

TEST_F(FieldChecks, ARecordingTimeOffsetOutsideTheYears1900To2200IsRefused)
{
    patch("tmet", 13312, std::numeric_limits<std::int64_t>::max());
    expectRefused(13312, "recording time offset 9223372036854775807 us lies outside the years 1900-2200");
    patch("tmet", 13312, std::int64_t{-2208988800000001});
    expectRefused(13312, "recording time offset -2208988800000001 us lies outside the years 1900-2200");
}

TEST_F(FieldChecks, UnknownOrImpossibleEncryptionBytesAreRefused)
{
    patch("tmet", 1024, std::int8_t{5});
    expectRefused(1024, "section 2 encryption 5 is not a MEF encryption level (-2 to 2)");
    patch("tmet", 1024, std::int8_t{-1});
    patch("tmet", 1025, std::int8_t{1});
    expectRefused(1025, "section 3 encryption 1 names a password, but the file has no password fields");
}

TEST_F(FieldChecks, AbsurdBlockScaleFactorOrFlagsAreADamagedBlock)
{
    const std::string tdat = segmentFile("tdat").string();
    const std::vector<std::pair<std::string, std::function<void()>>> cases = {
        {"scale factor 1.00000001504747e+30 is not finite or over 2^31", [&] { patchBlock(24, 1e30f); }},
        {"scale factor nan is not finite or over 2^31", [&] { patchBlock(24, std::nanf("")); }},
        {"flags 0xff hold bits MEF 3.0 does not define", [&] { patchBlock(4, std::uint8_t{0xFF}); }},
        {"flags 0x06 mark both encryption levels", [&] { patchBlock(4, std::uint8_t{0x06}); }},
        {"detrend slope inf or intercept 0 is not finite",
         [&] { patchBlock(16, std::numeric_limits<float>::infinity()); }},
    };
    const std::vector<std::uint8_t> intact = test::readBytes(segmentFile("tdat"));
    for (const auto& [message, damage] : cases) {
        test::writeBytes(segmentFile("tdat"), intact);
        damage();
        auto r = open();
        ASSERT_TRUE(r.ok()) << r.error().describe();
        std::vector<std::size_t> la1 = {0};
        const core::TimeRange all{(*r)->info().start, (*r)->info().end};
        auto refused = core::readRange(**r, la1, all, {});
        ASSERT_FALSE(refused.ok()) << message;
        EXPECT_EQ(refused.error().code, core::ErrorCode::Corrupt);
        EXPECT_EQ(refused.error().path, tdat);
        EXPECT_EQ(refused.error().offset, 1024);
        EXPECT_EQ(refused.error().message, "RED block 0: " + message);
        core::ReadControl skip;
        skip.skipDamagedBlocks = true;
        auto gapped = core::readRange(**r, la1, all, skip);
        ASSERT_TRUE(gapped.ok()) << gapped.error().describe();
        EXPECT_EQ((*gapped)[0].raw[0], core::kNoSample);
        EXPECT_EQ((*gapped)[0].raw[2559], core::kNoSample);
        EXPECT_NE((*gapped)[0].raw[2560], core::kNoSample);
        const std::vector<std::string> warnings = {tdat + ": RED block 0: " + message +
                                                   " (at byte 1024); its samples read as missing"};
        EXPECT_EQ((*r)->takeWarnings(), warnings);
        const std::vector<std::string> found = {tdat + " @1024: RED block 0: " + message};
        EXPECT_EQ(problems(), found);
    }
}

TEST_F(FieldChecks, AnIndexEntryOfNoSamplesIsAGapWithAWarning)
{
    patch("tidx", kUniversalHeaderBytes + 3 * 56 + 24, std::uint32_t{0});
    auto r = open();
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const core::ChannelInfo& la1 = (*r)->info().channels[0];
    EXPECT_EQ(la1.sampleCount, 27 * 2560);
    EXPECT_EQ(la1.gridLength, 76800);
    const std::vector<std::string> warnings = {segmentFile("tidx").string() +
                                               ": index entry 3 (at byte 1192) claims 0 samples: its block is not "
                                               "read (a gap)"};
    EXPECT_EQ((*r)->info().warnings, warnings);
    std::vector<std::size_t> la1Only = {0};
    auto samples = core::readRange(**r, la1Only, {(*r)->info().start, (*r)->info().end}, {});
    ASSERT_TRUE(samples.ok()) << samples.error().describe();
    EXPECT_EQ((*samples)[0].raw[7680], core::kNoSample);
    EXPECT_NE((*samples)[0].raw[7679], core::kNoSample);
}

TEST_F(FieldChecks, AnIndexCountBelowTheEntriesItsCrcCoversIsSaid)
{
    // The header counts 27 of the 28 entries, and its CRCs are sealed again: the last entry is not read, and said.
    patch("tidx", 32, std::int64_t{27});
    auto r = open();
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ((*r)->info().channels[0].sampleCount, 27 * 2560);
    const std::vector<std::string> warnings = {segmentFile("tidx").string() +
                                               ": 1 index entries past the last commit ignored (an interrupted "
                                               "append; run recover)"};
    EXPECT_EQ((*r)->info().warnings, warnings);
    const std::string expected = segmentFile("tidx").string() + " @" + std::to_string(kUniversalHeaderBytes + 27 * 56) +
                                 ": 1 index entries past the header's count (an interrupted append; run recover)";
    const std::vector<std::string> found = problems(); // then the data and metadata totals that disagree with it
    ASSERT_FALSE(found.empty());
    EXPECT_EQ(found.front(), expected);
}

} // namespace
} // namespace lv::formats::mef3
