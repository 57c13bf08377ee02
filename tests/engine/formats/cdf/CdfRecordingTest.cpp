// CDF files as recordings: which variables become channels, grid and irregular epochs, counts against the file's
// values, and damaged copies (every truncation, flipped bytes) read to a clear error or a warning, never a crash.
#include "CdfOracle.h"

#include "formats/RecordingOpener.h"
#include "formats/cdf/CdfRecording.h"
#include "formats/cdf/CdfTime.h"
#include "io/ByteSource.h"
#include "support/RecordingReads.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace lv::test::cdf {
namespace {

using formats::cdf::CdfRecording;

std::unique_ptr<CdfRecording> open(const std::string& name)
{
    auto r = formats::cdf::openCdf(dataDir() + "/" + name);
    if (!r) ADD_FAILURE() << r.error().describe();
    return r ? std::move(*r) : nullptr;
}

formats::OpenRequest request(const std::string& name)
{
    formats::OpenRequest r;
    r.path = dataDir() + "/" + name;
    return r;
}

// Counts times the channel's factor are the file's values (within half a step where floats are rounded), missing
// where the value is the FILLVAL or the record is not held.
void expectChannelIsVariable(CdfRecording& r, const std::string& channel, const std::string& variable,
                             std::size_t index, double fill)
{
    const int c = r.info().channelIndex(channel);
    ASSERT_GE(c, 0) << channel;
    const auto& v = *r.file().structure().variable(variable);
    const auto values = *r.file().numbers(v, index);
    const auto counts = lv::test::everyCount(r, static_cast<std::size_t>(c));
    const double step = r.info().channels[static_cast<std::size_t>(c)].conversionFactor;
    ASSERT_EQ(counts.size(), values.size());
    std::size_t missing = 0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        if (std::isnan(values[i]) || values[i] == fill) {
            EXPECT_EQ(counts[i], core::kNoSample) << channel << " " << i;
            ++missing;
            continue;
        }
        ASSERT_NE(counts[i], core::kNoSample) << channel << " " << i;
        EXPECT_NEAR(counts[i] * step, values[i], step / 2) << channel << " " << i;
    }
    EXPECT_LT(missing, counts.size());
}

TEST(CdfRecording, HourlyBigEndianColumnMajorEpochsAreAGrid)
{
    auto r = open("ac_h2_sis_20101105_v06.cdf"); // CDF 2.5, XDR encoding, column major
    ASSERT_TRUE(r);
    const auto& info = r->info();
    EXPECT_EQ(info.format, "CDF 2.5.22");
    const int c = info.channelIndex("flux_He[0]");
    ASSERT_GE(c, 0);
    const auto& ch = info.channels[static_cast<std::size_t>(c)];
    EXPECT_FALSE(ch.irregular);
    EXPECT_NEAR(ch.fs, 1.0 / 3600, 1e-9); // the rate to 6 digits (core::fitRaster)
    EXPECT_EQ(ch.sampleCount, 24);
    EXPECT_EQ(ch.start, core::Uutc{1288915200} * 1000000); // 2010-11-05T00:00:00
    EXPECT_EQ(ch.unit, "1/(cm2 Sr sec MeV/nucleon)");
    for (std::size_t k = 0; k < 8; ++k)
        expectChannelIsVariable(*r, "flux_He[" + std::to_string(k) + "]", "flux_He", k, -1e31);
    // All channels in one read (slices of one variable share its records, tile by tile) read as one at a time.
    std::vector<std::vector<std::int32_t>> together(info.channels.size(), std::vector<std::int32_t>(20));
    std::vector<core::RawSlice> slices;
    for (std::size_t k = 0; k < info.channels.size(); ++k) slices.push_back({k, 3, together[k]});
    ASSERT_TRUE(r->readRaw(slices, {}).ok());
    for (std::size_t k = 0; k < info.channels.size(); ++k) {
        const auto alone = lv::test::everyCount(*r, k);
        ASSERT_TRUE(std::equal(together[k].begin(), together[k].end(), alone.begin() + 3)) << info.channels[k].name;
    }
}

TEST(CdfRecording, TwoDimensionalRVariablesOfCdf24AreOneChannelPerVaryingValue)
{
    auto r = open("ge_k0_cpi_19921231_v02.cdf"); // rDims [3,2], the second not varying
    ASSERT_TRUE(r);
    EXPECT_GE(r->info().channelIndex("Time_PB5[2]"), 0);
    EXPECT_LT(r->info().channelIndex("Time_PB5[3]"), 0);
    expectChannelIsVariable(*r, "Time_PB5[2]", "Time_PB5", 2, -2147483648.0);
    expectChannelIsVariable(*r, "SW_P_Den", "SW_P_Den", 0, -1e31);
}

TEST(CdfRecording, Tt2000AcrossALeapSecondIsAnIrregularChannelWithTheReadersTimes)
{
    auto r = open("testutf8.cdf");
    ASSERT_TRUE(r);
    const int c = r->info().channelIndex("Longitude1[0]"); // 6 records: on tt2000, the epoch with as many
    ASSERT_GE(c, 0);
    EXPECT_TRUE(r->info().channels[static_cast<std::size_t>(c)].irregular);
    std::vector<std::int64_t> times(6);
    const core::TimeSlice slice{static_cast<std::size_t>(c), 0, times};
    ASSERT_TRUE(r->readTimes(std::span(&slice, 1), {}).ok());
    const std::int64_t midnight = std::int64_t{1435708800} * 1000000000;
    EXPECT_EQ(times, (std::vector<std::int64_t>{midnight - 1876543211, midnight - 876543211, midnight - 1,
                                                midnight + 123456789, midnight + 1123456789, midnight + 2123456789}));
    expectChannelIsVariable(*r, "Longitude1[1]", "Longitude1", 1, std::nan(""));
}

// The viewer's blocks: in order, inside the channel's samples, every present sample in one, each decoding to what
// readRaw gives there; the same on a grid and on irregular epochs.
TEST(CdfRecording, BlocksCoverEverySampleAndDecodeAsReadsDo)
{
    for (const char* name : {"ge_k0_cpi_19921231_v02.cdf", "testutf8.cdf"}) {
        auto r = open(name);
        ASSERT_TRUE(r);
        ASSERT_EQ(r->blockSource(), r.get());
        for (std::size_t c = 0; c < r->info().channels.size(); ++c) {
            const core::ChannelInfo& ch = r->info().channels[c];
            const std::vector<std::int32_t> all = lv::test::everyCount(*r, c);
            std::int64_t covered = 0, end = 0;
            for (std::size_t b = 0; b < r->blocks(c).size(); ++b) {
                const core::BlockSpan span = r->blocks(c)[b];
                ASSERT_GE(span.first, end) << ch.name;
                ASSERT_LE(span.first + span.count, ch.gridLength) << ch.name;
                std::vector<std::int32_t> decoded(span.count);
                ASSERT_TRUE(r->decodeBlock(c, b, decoded, {}).ok());
                EXPECT_TRUE(std::equal(decoded.begin(), decoded.end(), all.begin() + span.first))
                    << ch.name << " " << b;
                covered += span.count;
                end = span.first + span.count;
            }
            EXPECT_EQ(covered, ch.sampleCount) << ch.name;
        }
    }
}

TEST(CdfRecording, OpenRecordingReadsCdfByContentAndRefusesOtherFilesByName)
{
    auto r = formats::openRecording(request("ia_k0_epi_19970102_v01.cdf"));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ((*r)->info().format, "CDF 2.4.6");
    auto bad = formats::openRecording(request("not_a_cdf.cdf"));
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "not a CDF file (no CDF magic number)");
    auto master = formats::openRecording(request("ac_h0_mfi_00000000_v01.cdf"));
    ASSERT_FALSE(master.ok());
    EXPECT_EQ(master.error().message,
              "no numeric variable with records depends on an epoch variable (DEPEND_0): nothing to show");
}

// Opens and reads every channel of a damaged copy: an error names the file; never a crash or a hang.
void openAndReadAll(std::vector<std::uint8_t> bytes, const std::string& what, std::size_t& failures)
{
    auto r = formats::cdf::openCdf(io::memorySource(std::move(bytes), "damaged.cdf"));
    if (!r) {
        EXPECT_EQ(r.error().path, "damaged.cdf") << what << ": " << r.error().describe();
        ++failures;
        return;
    }
    for (std::size_t c = 0; c < (*r)->info().channels.size(); ++c) {
        std::vector<std::int32_t> out(
            static_cast<std::size_t>(std::min<std::int64_t>((*r)->info().channels[c].gridLength, 1 << 16)));
        const core::RawSlice slice{c, 0, out};
        const core::Status read = (*r)->readRaw(std::span(&slice, 1), {});
        if (!read.ok()) {
            EXPECT_EQ(read.error().path, "damaged.cdf") << what << ": " << read.error().describe();
        }
    }
}

TEST(CdfRecording, EveryTruncationAndFlippedBytesGiveAnErrorOrAWarningNeverACrash)
{
    for (const char* name :
         {"ac_h2_sis_20101105_v06.cdf", "a_compressed_cdf.cdf", "a_cdf_with_compressed_vars.cdf", "testutf8.cdf"}) {
        const auto bytes = readBytes(dataDir() + "/" + name);
        std::size_t failures = 0;
        for (std::size_t size = 0; size < bytes.size(); size += 1 + size / 64)
            openAndReadAll(std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size)),
                           std::string(name) + " cut at " + std::to_string(size), failures);
        EXPECT_GT(failures, 0u);
        std::mt19937 rng(7);
        for (int k = 0; k < 300; ++k) {
            auto copy = bytes;
            const std::size_t at = rng() % std::min<std::size_t>(copy.size(), 16384);
            copy[at] ^= static_cast<std::uint8_t>(1 + rng() % 255);
            openAndReadAll(std::move(copy), std::string(name) + " byte " + std::to_string(at) + " flipped", failures);
        }
    }
}

TEST(CdfRecording, DamagedRecordsNameTheProblemAndTheOffset)
{
    const auto bytes = readBytes(dataDir() + "/a_cdf.cdf");
    auto cut = formats::cdf::openCdf(io::memorySource({bytes.begin(), bytes.begin() + 400}, "cut.cdf"));
    ASSERT_FALSE(cut.ok());
    EXPECT_EQ(cut.error().describe(), "cut.cdf: a GDR of 84 bytes, beyond the 80 bytes left in the file (at byte 320)");
}

} // namespace
} // namespace lv::test::cdf
