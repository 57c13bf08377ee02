// Absurd but CRC-valid numbers in a session's files: impossible sampling rates are refused with the field and
// its offset; a damaged block time or sample count drops that block with a warning (a gap), and what no header
// confines is refused. Nothing makes a read longer than the file, allocate what the file cannot hold, or hang.
#include "support/MefPatch.h"
#include "support/TestSupport.h"

#include "core/LittleEndian.h"
#include "core/Recording.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/UniversalHeader.h"

#include <chrono>
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;

constexpr core::Uutc kStart = test::kMeflibRtoStart;
constexpr std::int64_t kStoredStart = test::kMeflibRtoStoredStart;

class Bounds : public test::MeflibRtoCopy {
protected:
    static std::size_t entry(std::size_t i) { return kUniversalHeaderBytes + i * 56; }
};

core::Result<std::unique_ptr<MefRecording>> open(const fs::path& session) { return openMef3(session.string(), {}); }

TEST_F(Bounds, ImpossibleSamplingFrequenciesAreRefusedWithFieldOffsetAndValue)
{
    const double infinity = std::numeric_limits<double>::infinity();
    const std::vector<std::pair<double, std::string>> cases = {
        {1e300, "1e+300"}, {1e-300, "1e-300"}, {1e9, "1000000000"}, {std::nan(""), "nan"},
        {infinity, "inf"}, {0.0, "0"},         {-256.0, "-256"},    {1000000.5, "1000000.5"},
    };
    for (const auto& [fs, text] : cases) {
        patch("tmet", 8720, fs);
        const auto began = std::chrono::steady_clock::now();
        auto r = open(session);
        EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(5));
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
        EXPECT_EQ(r.error().path, segmentFile("tmet").string());
        EXPECT_EQ(r.error().offset, 8720);
        EXPECT_EQ(r.error().message, "sampling frequency " + text + " Hz is outside [1e-06, 1000000] Hz");
    }
}

TEST_F(Bounds, TheHighestAndLowestPlausibleRatesOpen)
{
    // At 1 MHz the blocks of 2560 samples 10 s apart leave gaps; at 1 uHz each block outlasts the next one's
    // start, so the blocks follow each other (and outlast the header's 300 s: without its span here).
    patch("tmet", 16, kUutcNoEntry);
    for (const auto& [fs, grid] : {std::pair{1e6, std::int64_t{290'002'560}}, std::pair{1e-6, std::int64_t{71680}}}) {
        patch("tmet", 8720, fs);
        auto r = open(session);
        ASSERT_TRUE(r.ok()) << r.error().describe();
        const core::ChannelInfo& la1 = (*r)->info().channels[0];
        EXPECT_EQ(la1.name, "LA1");
        EXPECT_EQ(la1.sampleCount, 71680);
        EXPECT_EQ(la1.gridLength, grid);
    }
}

TEST_F(Bounds, OneBlockTimeYearsLaterIsDroppedAsAGapWithAWarning)
{
    constexpr std::int64_t k55Years = 1735660800000000; // 55 * 365.25 days in microseconds
    patch("tidx", entry(5) + 8, kStoredStart - 50'000'000 - k55Years);
    auto r = open(session);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const core::ChannelInfo& la1 = (*r)->info().channels[0];
    EXPECT_EQ(la1.sampleCount, 27 * 2560);
    EXPECT_EQ(la1.gridLength, 76800); // 300 s at 256 Hz, as before the damage
    EXPECT_EQ(la1.start, kStart);
    EXPECT_EQ(la1.end, kStart + 300'000'000);
    const std::vector<core::TimeRange> gaps = {{kStart + 50'000'000, kStart + 60'000'000},
                                               {kStart + 120'000'000, kStart + 140'000'000}};
    EXPECT_EQ(la1.gaps, gaps);
    ASSERT_EQ((*r)->info().warnings.size(), 1u);
    EXPECT_EQ((*r)->info().warnings[0],
              segmentFile("tidx").string() +
                  ": index entry 5 (at byte 1304): its block of 2560 samples at 2079-01-01T02:00:50.000000+00:00 lies "
                  "outside the segment's span 2024-01-01T10:00:00.000000+00:00 to 2024-01-01T10:05:00.000000+00:00 "
                  "(its header): its samples are missing");
    std::vector<std::size_t> both = {0, 1};
    core::ReadControl control;
    control.verifyCrc = true;
    auto samples = core::readRange(**r, both, {(*r)->info().start, (*r)->info().end}, control);
    ASSERT_TRUE(samples.ok()) << samples.error().describe();
    EXPECT_EQ((*samples)[0].raw.size(), 76800u);
    EXPECT_EQ((*samples)[0].raw[12800], core::kNoSample);
}

TEST_F(Bounds, WithoutHeaderTimesAnOutOfOrderBlockIsDroppedAlone)
{
    patch("tmet", 16, kUutcNoEntry);                       // the metadata's universal header gives no span
    patch("tidx", entry(5) + 8, kStoredStart - 5'000'000); // between blocks 0 and 1
    auto r = open(session);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const core::ChannelInfo& la1 = (*r)->info().channels[0];
    EXPECT_EQ(la1.sampleCount, 27 * 2560);
    EXPECT_EQ(la1.gridLength, 76800);
    ASSERT_EQ((*r)->info().warnings.size(), 1u);
    EXPECT_EQ((*r)->info().warnings[0], segmentFile("tidx").string() +
                                            ": index entry 5 (at byte 1304): its block at "
                                            "2024-01-01T10:00:05.000000+00:00 is out of time order with the blocks "
                                            "around it: its samples are missing");
}

TEST_F(Bounds, ASpanNoHeaderConfinesIsRefused)
{
    patch("tmet", 16, kUutcNoEntry);
    patch("tidx", entry(27) + 8, kStoredStart - 1735660800000000); // the last block, 55 years on
    auto r = open(session);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(r.error().path, segmentFile("tidx").string());
    EXPECT_EQ(r.error().message, "channel LA1: its block times span 444329167360 sample times but its blocks hold "
                                 "71680 samples: the block times are damaged");
}

TEST_F(Bounds, AnIndexEntryOfFourBillionSamplesIsDroppedNotAllocated)
{
    patch("tidx", entry(3) + 24, std::uint32_t{0xFFFFFFFF});
    auto r = open(session);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const core::ChannelInfo& la1 = (*r)->info().channels[0];
    EXPECT_EQ(la1.sampleCount, 27 * 2560);
    EXPECT_EQ(la1.gridLength, 76800);
    ASSERT_EQ((*r)->info().warnings.size(), 1u);
    EXPECT_EQ((*r)->info().warnings[0],
              segmentFile("tidx").string() +
                  ": index entry 3 (at byte 1192) claims 4294967295 samples, more than a RED block holds (16777216): "
                  "its samples are missing");
    std::vector<std::size_t> la1Only = {0};
    auto samples = core::readRange(**r, la1Only, {(*r)->info().start, (*r)->info().end}, {});
    ASSERT_TRUE(samples.ok()) << samples.error().describe();
    EXPECT_EQ((*samples)[0].raw[7680], core::kNoSample);
}

TEST_F(Bounds, AnIndexEntryOfMoreSamplesThanItsBlockIsAnError)
{
    patch("tmet", 16, kUutcNoEntry);
    patch("tidx", entry(27) + 24, std::uint32_t{1u << 24}); // the last block: no later block to overlap
    auto r = open(session);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    std::vector<std::size_t> la1Only = {0};
    auto samples = core::readRange(**r, la1Only, {(*r)->info().start, (*r)->info().start + 1'000'000}, {});
    ASSERT_TRUE(samples.ok()) << samples.error().describe(); // blocks before the damaged one read
    auto all = core::readRange(**r, la1Only, {(*r)->info().start, (*r)->info().end}, {});
    ASSERT_FALSE(all.ok());
    EXPECT_EQ(all.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(all.error().offset, 115304);
    EXPECT_EQ(all.error().message,
              "RED block 27: header disagrees with the index (2560 samples in 4272 bytes, index says 16777216 in "
              "4272)");
}

} // namespace
} // namespace lv::formats::mef3
