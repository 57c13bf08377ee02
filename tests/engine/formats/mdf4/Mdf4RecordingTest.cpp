// MDF 4 files read as recordings: grid channels sample-exact against asammdf's dumps (expected/*.csv), times on
// the grid to the microsecond, the same on several threads, and what is left out said in warnings.
#include "Mdf4Oracle.h"

#include "formats/mdf4/Mdf4Recording.h"

#include "core/LittleEndian.h"
#include "decode/ThreadPool.h"
#include "formats/RecordingOpener.h"
#include "formats/mdf4/Mdf4Writer.h"
#include "support/TestSupport.h"

#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <set>

using namespace lv;
using namespace lv::formats::mdf4;

namespace {

std::string mdf4Dir() { return std::string(LONGVIEW_TESTDATA) + "/mdf4"; }

std::unique_ptr<Mdf4Recording> open(const std::string& name)
{
    auto r = openMdf4(mdf4Dir() + "/" + name);
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r.ok() ? std::move(*r) : nullptr;
}

std::vector<std::int32_t> readAll(core::Recording& r, std::size_t channel, core::TaskRunner* runner = nullptr)
{
    std::vector<std::int32_t> out(static_cast<std::size_t>(r.info().channels[channel].gridLength));
    const core::RawSlice slice{channel, 0, out};
    core::ReadControl control;
    control.runner = runner;
    const core::Status s = r.readRaw({&slice, 1}, control);
    EXPECT_TRUE(s.ok()) << s.error().describe();
    return out;
}

struct Expected {
    std::string file, channel;
    bool exact; // every value kept exactly (integers, float32); else within half a step
};

void PrintTo(const Expected& e, std::ostream* os) { *os << e.file << " " << e.channel; }

class Mdf4RecordingSamples : public ::testing::TestWithParam<Expected> {};

} // namespace

TEST_P(Mdf4RecordingSamples, EqualAsammdfsDumpOnTheGrid)
{
    const Expected& e = GetParam();
    auto r = open(e.file);
    ASSERT_TRUE(r);
    const int c = r->info().channelIndex(e.channel);
    ASSERT_GE(c, 0);
    const core::ChannelInfo& ch = r->info().channels[static_cast<std::size_t>(c)];
    const std::string stem = e.file.substr(0, e.file.rfind('.'));
    const auto rows = lv::test::mdf4::numericDump(mdf4Dir() + "/expected/" + stem + "__" + e.channel + ".csv");
    ASSERT_EQ(ch.sampleCount, static_cast<std::int64_t>(rows.size()));
    const std::vector<std::int32_t> counts = readAll(*r, static_cast<std::size_t>(c));
    std::size_t row = 0;
    for (const core::TimeRange& segment : ch.segments) {
        const std::int64_t first = ch.grid().nearestIndex(segment.start), end = ch.grid().nearestIndex(segment.end);
        for (std::int64_t i = first; i < end; ++i, ++row) {
            ASSERT_LT(row, rows.size());
            const auto [time, value] = rows[row];
            const core::Uutc expectedTime = r->info().start + std::llround(time * 1e6);
            ASSERT_LE(std::abs(ch.grid().timeOf(i) - expectedTime), 1) << "sample " << row;
            const std::int32_t count = counts[static_cast<std::size_t>(i)];
            if (std::isnan(value)) {
                ASSERT_EQ(count, core::kNoSample) << "sample " << row;
                continue;
            }
            ASSERT_NE(count, core::kNoSample) << "sample " << row;
            const double got = count * ch.conversionFactor + ch.offset;
            if (e.exact)
                ASSERT_EQ(got, value) << "sample " << row;
            else
                ASSERT_LE(std::abs(got - value), ch.conversionFactor / 2) << "sample " << row;
        }
    }
    EXPECT_EQ(row, rows.size());
}

INSTANTIATE_TEST_SUITE_P(ReferenceFiles, Mdf4RecordingSamples,
                         ::testing::Values(Expected{"Vector_IntegerTypes.MF4", "Bit_Signal", true},
                                           Expected{"Vector_IntegerTypes.MF4", "Counter_INT16_BE", true},
                                           Expected{"Vector_SingleDZ_Unsorted.MF4", "channel1", false},
                                           Expected{"asammdf_transposed_dl.mf4", "ch1", true},
                                           Expected{"asammdf_two_rates_dz.mf4", "counter", true},
                                           Expected{"asammdf_two_rates_dz.mf4", "ecg", false},
                                           Expected{"asammdf_two_rates_dz.mf4", "pressure", true},
                                           Expected{"asammdf_two_rates_dz.mf4", "temp_gap", true},
                                           Expected{"asammdf_vlsd_virtual.mf4", "value3", true},
                                           Expected{"asammdf_vlsd_virtual.mf4", "vm_data", true}));

TEST(Mdf4Recording, ReadsTheSameOnSeveralThreadsAndInPieces)
{
    auto r = open("Vector_DataList_TransposeDeflate.mf4");
    ASSERT_TRUE(r);
    decode::ThreadPool pool(2);
    for (std::size_t c = 0; c < r->info().channels.size(); ++c) {
        const std::vector<std::int32_t> whole = readAll(*r, c);
        EXPECT_EQ(readAll(*r, c, &pool), whole);
        std::vector<std::int32_t> piece(777);
        const core::RawSlice slice{c, 4321, piece};
        ASSERT_TRUE(r->readRaw({&slice, 1}, {}).ok());
        EXPECT_TRUE(std::equal(piece.begin(), piece.end(), whole.begin() + 4321));
    }
}

TEST(Mdf4Recording, GapsBetweenCaptureBlocksAreGapsOfTheGrid)
{
    // 5 ms group: 0 .. 1.045 s, 4.055 .. 6.055 s, 9.055 .. 9.405 s (two acquisition interrupts)
    auto r = open("dSPACE_CaptureBlocks.mf4");
    ASSERT_TRUE(r);
    const int c = r->info().channelIndex("Model Root/SigGenOut");
    ASSERT_GE(c, 0);
    const core::ChannelInfo& ch = r->info().channels[static_cast<std::size_t>(c)];
    EXPECT_EQ(ch.fs, 200.0);
    EXPECT_EQ(ch.sampleCount, 682);
    ASSERT_EQ(ch.gaps.size(), 2u);
    EXPECT_EQ(ch.gaps[0].end - ch.gaps[0].start, 3'005'000); // 3.01 s between samples: 601 missing points
    EXPECT_EQ(ch.gaps[1].end - ch.gaps[1].start, 2'995'000);
    const std::vector<std::int32_t> counts = readAll(*r, static_cast<std::size_t>(c));
    const std::int64_t inGap = ch.grid().nearestIndex(ch.gaps[0].start);
    EXPECT_EQ(counts[static_cast<std::size_t>(inGap)], core::kNoSample);
    EXPECT_NE(counts[static_cast<std::size_t>(inGap - 1)], core::kNoSample);
}

TEST(Mdf4Recording, ValueToTextCountsHaveTheirTextsAsLabels)
{
    auto r = open("asammdf_two_rates_dz.mf4");
    ASSERT_TRUE(r);
    const int c = r->info().channelIndex("state");
    ASSERT_GE(c, 0);
    const auto channel = static_cast<std::size_t>(c);
    EXPECT_TRUE(r->info().channels[channel].labelled);
    const std::vector<std::int32_t> counts = readAll(*r, channel);
    const auto rows = lv::test::mdf4::readDumpFile(mdf4Dir() + "/expected/asammdf_two_rates_dz__state.csv");
    ASSERT_EQ(rows.size(), counts.size());
    std::set<std::string> seen;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ASSERT_TRUE(rows[i].text) << "row " << i;
        ASSERT_EQ(r->valueLabel(channel, counts[i]), *rows[i].text) << "row " << i;
        seen.insert(*rows[i].text);
    }
    EXPECT_GE(seen.size(), 2u);
    EXPECT_EQ(r->valueLabel(channel, core::kNoSample), "");
    const int counter = r->info().channelIndex("counter");
    ASSERT_GE(counter, 0);
    EXPECT_FALSE(r->info().channels[static_cast<std::size_t>(counter)].labelled);
    EXPECT_EQ(r->valueLabel(static_cast<std::size_t>(counter), 1), "");
}

TEST(Mdf4Recording, WhatIsNotShownIsSaid)
{
    auto r = open("asammdf_two_rates_dz.mf4");
    ASSERT_TRUE(r);
    const std::vector<std::string>& w = r->info().warnings;
    EXPECT_NE(std::find(w.begin(), w.end(),
                        "channel state: its values are texts (value_to_text): the plot draws their numbers, its "
                        "readout and CSV give the texts"),
              w.end());
}

TEST(Mdf4Recording, TextChannelsAreAnnotationsAtTheirTimes)
{
    auto v = open("Vector_SingleDZ_Unsorted.MF4");
    ASSERT_TRUE(v);
    int status = 0;
    const auto rows = lv::test::mdf4::dump(mdf4Dir() + "/Vector_SingleDZ_Unsorted.MF4", "Write", 4, &status);
    ASSERT_EQ(status, 0);
    std::vector<core::Annotation> written;
    for (const core::Annotation& a : v->info().annotations)
        if (a.type == "Write") written.push_back(a);
    ASSERT_EQ(written.size(), rows.size());
    ASSERT_EQ(rows.size(), 140u);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ASSERT_TRUE(rows[i].text);
        EXPECT_EQ(written[i].text, *rows[i].text) << "row " << i;
        EXPECT_EQ(written[i].time, v->info().start + std::llround(rows[i].time * 1e6)) << "row " << i;
        EXPECT_FALSE(written[i].channel);
    }
    EXPECT_TRUE(std::is_sorted(v->info().annotations.begin(), v->info().annotations.end(),
                               [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; }));
    for (const std::string& w : v->info().warnings) EXPECT_EQ(w.find("text or bytes"), std::string::npos) << w;
}

TEST(Mdf4Recording, OpensThroughTheOneOpenerByContent)
{
    formats::OpenRequest request;
    request.path = mdf4Dir() + "/Vector_CANape.MF4";
    auto r = formats::openRecording(request);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ((*r)->info().format, "MDF 4.10");
    EXPECT_NE((*r)->blockSource(), nullptr);
    ASSERT_NE(formats::readableFormatOf("x/Vector_CANape.MF4"), nullptr);
    EXPECT_EQ(formats::readableFormatOf("x/Vector_CANape.MF4")->name, "ASAM MDF 4");
}

TEST(Mdf4Recording, EventsAreAnnotationsWithTheirRanges)
{
    auto r = open("dSPACE_CaptureBlocks.mf4"); // three begin/end pairs of acquisition interrupts (mdf-check's listing)
    ASSERT_TRUE(r);
    const std::vector<core::Annotation>& a = r->info().annotations;
    ASSERT_EQ(a.size(), 3u);
    const core::Uutc start = r->info().start;
    EXPECT_EQ(a[0].time - start, 1'045'000); // 1.0450002275555779 s
    EXPECT_EQ(a[0].durationUs, 3'010'000);   // to 4.05500001197661 s
    EXPECT_EQ(a[1].time - start, 4'725'000);
    EXPECT_EQ(a[1].durationUs, 4'000'000);
    EXPECT_EQ(a[2].time - start, 6'055'000);
    EXPECT_EQ(a[2].durationUs, 3'000'000);
    EXPECT_EQ(a[0].type, "acquisition_interrupt");
}

TEST(Mdf4Recording, ChannelsSayTheGroupTheyWereRecordedIn)
{
    auto r = open("dSPACE_CaptureBlocks.mf4");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->info().channels[0].group, "channel group 0 (10ms), source Platform");
    EXPECT_EQ(r->info().channels[1].group, "channel group 1 (5ms), source Platform");
    auto d = open("Vector_DataList_Deflate.mf4");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->info().description.substr(0, 44), "Example file for different master channels.\n");
}

// Several groups of many small DZ blocks each: every channel reads back its own group's records, whatever was
// read before (the inflated blocks are cached by their place in the file; keyed otherwise, a 36,424-channel file
// read another group's block and crashed).
namespace {

std::int16_t sixGroupsValue(int g, int c, std::int64_t i)
{
    return static_cast<std::int16_t>((i * (c + 3) + 1000 * g) % 30011 - 15000);
}

// Six groups of 2-7 int16 channels, 700 (g + 1) records at 10 (g + 1) Hz with a 2 s hole after record 300, in DZ
// blocks of 500 bytes.
std::string writeSixGroups(const std::filesystem::path& dir)
{
    const std::string path = (dir / "g.mf4").string();
    formats::mdf4::FileSpec spec;
    spec.startNs = std::uint64_t{1'600'000'000} * 1'000'000'000;
    spec.zipBytes = 500;
    const auto value = sixGroupsValue;
    for (int g = 0; g < 6; ++g) {
        formats::mdf4::GroupSpec group;
        for (int c = 0; c < 2 + g; ++c)
            group.channels.push_back({"g" + std::to_string(g) + "c" + std::to_string(c), "uV", "",
                                      formats::mdf4::ValueType::Int16, true, 0.5, 0.0});
        spec.groups.push_back(group);
    }
    auto w = formats::mdf4::Mdf4Writer::create(path, spec);
    if (!w) return ADD_FAILURE() << w.error().describe(), path;
    for (int g = 0; g < 6; ++g) {
        const formats::mdf4::RecordLayout& layout = (*w)->layout(static_cast<std::size_t>(g));
        const std::int64_t records = 700 * (g + 1);
        std::vector<std::uint8_t> bytes(static_cast<std::size_t>(records) * layout.recordBytes(), 0);
        for (std::int64_t i = 0; i < records; ++i) {
            std::uint8_t* record = &bytes[static_cast<std::size_t>(i) * layout.recordBytes()];
            const double gap = i >= 300 ? 2.0 : 0.0; // 2 s without records: a gap of 20 (g + 1) grid points
            core::le::store<double>(record, static_cast<double>(i) / (10.0 * (g + 1)) + gap);
            for (int c = 0; c < 2 + g; ++c)
                core::le::store<std::int16_t>(record + layout.offsets[static_cast<std::size_t>(c)], value(g, c, i));
        }
        EXPECT_TRUE((*w)->append(static_cast<std::size_t>(g), bytes).ok());
    }
    EXPECT_TRUE((*w)->commit().ok());
    return path;
}

} // namespace

TEST(Mdf4Recording, ManyCompressedBlocksOfSeveralGroupsReadBackExactly)
{
    test::TempDir dir;
    const auto value = sixGroupsValue;
    auto r = openMdf4(writeSixGroups(dir.path()));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ((*r)->info().channels.size(), 27u);
    for (int pass = 0; pass < 2; ++pass) // the second pass reads from the cache
        for (std::size_t k = (*r)->info().channels.size(); k-- > 0;) {
            const core::ChannelInfo& ch = (*r)->info().channels[k];
            const int g = ch.name[1] - '0', c = ch.name[3] - '0';
            EXPECT_EQ(ch.fs, 10.0 * (g + 1));
            ASSERT_EQ(ch.gaps.size(), 1u) << ch.name; // times read from the time column alone, block by block
            const std::int64_t hole = 20 * (g + 1);
            const std::vector<std::int32_t> counts = readAll(**r, k);
            ASSERT_EQ(std::ssize(counts), 700 * (g + 1) + hole) << ch.name;
            for (std::int64_t i = 0; i < std::ssize(counts); ++i) {
                const std::int64_t record = i < 300 ? i : i - hole;
                const std::int32_t expected = i >= 300 && i < 300 + hole ? core::kNoSample : value(g, c, record);
                ASSERT_EQ(counts[static_cast<std::size_t>(i)], expected) << ch.name << " sample " << i;
            }
        }
}

// Every channel in one read on two threads, in windows: the DZ blocks the windows need are inflated first, each
// once, side by side; what the jobs take out of them is what one thread reads.
TEST(Mdf4Recording, AllChannelsReadTogetherOnTwoThreadsEqualOneThread)
{
    test::TempDir dir;
    auto r = openMdf4(writeSixGroups(dir.path()));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const std::size_t n = (*r)->info().channels.size();
    std::vector<std::vector<std::int32_t>> want(n);
    for (std::size_t k = 0; k < n; ++k) want[k] = readAll(**r, k);
    std::filesystem::create_directories(dir.path() / "again");
    auto again = openMdf4(writeSixGroups(dir.path() / "again")); // nothing cached
    ASSERT_TRUE(again.ok()) << again.error().describe();
    decode::ThreadPool pool(2);
    core::ReadControl control;
    control.runner = &pool;
    for (std::int64_t from = 0; from < 4200; from += 1000) {
        std::vector<std::vector<std::int32_t>> got(n);
        std::vector<core::RawSlice> slices;
        for (std::size_t k = 0; k < n; ++k) {
            const std::int64_t end = std::min<std::int64_t>(from + 1000, std::ssize(want[k]));
            if (end <= from) continue;
            got[k].resize(static_cast<std::size_t>(end - from));
            slices.push_back({k, from, got[k]});
        }
        ASSERT_TRUE((*again)->readRaw(slices, control).ok());
        for (const core::RawSlice& s : slices)
            ASSERT_TRUE(std::equal(s.out.begin(), s.out.end(), want[s.channel].begin() + from))
                << (*again)->info().channels[s.channel].name << " from " << from;
    }
}

// A DZ block whose compressed bytes are damaged: the open or the read fails naming the block, never a wrong value.
TEST(Mdf4Recording, ADamagedCompressedBlockIsAnErrorNamingIt)
{
    test::TempDir dir;
    const std::string path = writeSixGroups(dir.path());
    std::vector<std::uint8_t> bytes = test::readBytes(path);
    const std::string text(bytes.begin(), bytes.end());
    const std::size_t dz = text.find("##DZ", text.find("##DZ") + 4); // the second block
    ASSERT_NE(dz, std::string::npos);
    for (std::size_t i = dz + 50; i < dz + 60; ++i) bytes[i] ^= 0x5a;
    test::writeBytes(path, bytes);
    auto r = openMdf4(path);
    core::Status read = r.ok() ? core::readEverySample(**r, {}) : core::Status(r.error());
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(read.error().offset, static_cast<std::int64_t>(dz));
    EXPECT_NE(read.error().message.find("##DZ"), std::string::npos) << read.error().message;
}

// dSPACE's capture blocks carry sample reductions (SR: mean, minimum and maximum per interval): the blocks are cut
// along their intervals and gaps, and each block's stored extrema are the least and greatest counts it decodes to.
TEST(Mdf4Recording, SampleReductionsAreTheBlocksStoredExtrema)
{
    auto r = open("dSPACE_CaptureBlocks.mf4");
    ASSERT_TRUE(r);
    ASSERT_TRUE(r->storesExtrema());
    for (const char* name : {"Model Root/SigGenOut", "Model Root/Control_out", "Model Root/Throttle_act_pos"}) {
        const int c = r->info().channelIndex(name);
        ASSERT_GE(c, 0) << name;
        const auto channel = static_cast<std::size_t>(c);
        const std::span<const core::BlockSpan> blocks = r->blocks(channel);
        std::int64_t samples = 0, withExtrema = 0;
        for (std::size_t b = 0; b < blocks.size(); ++b) {
            samples += blocks[b].count;
            if (!blocks[b].hasExtrema) continue;
            ++withExtrema;
            std::vector<std::int32_t> counts(blocks[b].count);
            ASSERT_TRUE(r->decodeBlock(channel, b, counts, {}).ok());
            EXPECT_EQ(blocks[b].minimum, *std::min_element(counts.begin(), counts.end())) << name << " block " << b;
            EXPECT_EQ(blocks[b].maximum, *std::max_element(counts.begin(), counts.end())) << name << " block " << b;
        }
        EXPECT_EQ(samples, r->info().channels[channel].sampleCount) << name;
        EXPECT_EQ(withExtrema, std::ssize(blocks)) << name; // every block is whole intervals of the reduction
        EXPECT_GE(blocks.size(), 2u) << name;
    }
}
