// BrainVision export: counts exact where the format allows (INT_16/INT_32 with the factor as resolution), floats
// with NaN otherwise, gaps as dated "New Segment" markers, annotations as markers; read back by our reader and MNE.
#include "../formats/brainvision/BvTestSupport.h"

#include "convert/Targets.h"
#include "formats/RecordingOpener.h"
#include "formats/brainvision/BvRecording.h"
#include "support/MemoryRecording.h"
#include "support/RecordingReads.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;
namespace bv = formats::brainvision;

core::Result<ExportOutcome> write(core::Recording& r, const std::string& out, const core::ReadControl& control = {})
{
    Selection all;
    all.range = {r.info().start, r.info().end};
    for (std::size_t c = 0; c < r.info().channels.size(); ++c) all.channels.push_back(c);
    return exportTo(r, all, TargetOptions{}, out, control);
}

std::unique_ptr<bv::BvRecording> reopen(const std::string& header)
{
    auto r = bv::openBrainVision(header);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
    return r.ok() ? std::move(*r) : nullptr;
}

std::string text(const fs::path& p)
{
    const auto b = lv::test::readBytes(p);
    return std::string(b.begin(), b.end());
}

// Two channels of 256 Hz with the same gap, annotations before, in and after it.
lv::test::MemoryRecording gapped()
{
    lv::test::MemoryRecording m;
    m.description.format = "MEF 3.0";
    m.description.path = "memory";
    m.addChannel("A", 256, 1'600'000'000'000'000, 1024, 3, 300, 556);
    m.addChannel("B,2", 256, 1'600'000'000'000'000, 1024, -7, 300, 556);
    const core::Uutc t0 = m.description.start;
    m.description.annotations = {{t0 + 500'000, 250'000, "Stimulus", "S  1", std::nullopt},
                                 {t0 + 1'500'000, 0, "Note", "in, the gap", std::nullopt},
                                 {t0 + 2'100'000, 0, "Note", "late in the gap", std::nullopt},
                                 {t0 + 3'000'000, 0, "", "on B", std::string("B,2")}};
    return m;
}

TEST(BrainVisionExport, CountsWithoutOffsetRoundTripExactlyWithTheirGapsAndMarkers)
{
    lv::test::MemoryRecording m = gapped();
    lv::test::TempDir dir;
    const std::string out = (dir.path() / "rec.vhdr").string();
    auto outcome = write(m, out);
    ASSERT_TRUE(outcome.ok()) << outcome.error().describe();
    EXPECT_EQ(outcome->files, std::vector<std::string>{out});
    EXPECT_NE(text(out).find("BinaryFormat=INT_32\r\n"), std::string::npos);
    EXPECT_NE(text(out).find("Ch2=B\\12,,0.5,uV\r\n"), std::string::npos);
    auto r = reopen(out);
    ASSERT_TRUE(r);
    const core::ChannelInfo& a = r->info().channels[0];
    EXPECT_EQ(r->info().channels[1].name, "B,2");
    EXPECT_EQ(a.conversionFactor, 0.5);
    EXPECT_EQ(a.segments, m.description.channels[0].segments);
    EXPECT_EQ(a.gaps, m.description.channels[0].gaps);
    for (std::size_t c = 0; c < 2; ++c) EXPECT_EQ(lv::test::everyCount(*r, c), m.grids[c]) << c;
    const auto& marks = r->info().annotations;
    ASSERT_EQ(marks.size(), 4u);
    EXPECT_EQ(marks[0].time, m.description.annotations[0].time);
    EXPECT_EQ(marks[0].durationUs, 250'000);
    EXPECT_EQ(marks[0].type + "|" + marks[0].text, "Stimulus|S  1");
    // In the gap (grid points 300 to 555), at grid point 384: nearer the last point before it than the first after.
    EXPECT_EQ(marks[1].time, m.description.channels[0].grid().timeOf(299));
    EXPECT_EQ(marks[1].text, "in, the gap");
    EXPECT_EQ(marks[2].time, a.segments[1].start); // grid point 538: nearer the first point after the gap (556)
    EXPECT_EQ(marks[3].type, "Comment");
    EXPECT_EQ(marks[3].channel.value_or(""), "B,2");
    EXPECT_EQ(marks[3].time, m.description.annotations[3].time);
    ASSERT_EQ(outcome->warnings.size(), 2u);
    EXPECT_EQ(outcome->warnings[0], out + ": 2 annotations fall in gaps, which BrainVision cannot hold: each is "
                                          "placed at the nearest data point, before or after its gap");
    const bv::test::MneReading mne = bv::test::readWithMne(out);
    ASSERT_EQ(mne.values.size(), 2u);
    ASSERT_EQ(mne.values[1].size(), 1024u - 256u);
    EXPECT_DOUBLE_EQ(mne.values[1][400], 0.5 * m.grids[1][656]); // data point 400 is grid point 656 after the gap
}

TEST(BrainVisionExport, ASampleMissingWhereOthersArePresentWritesFloatsWithNaN)
{
    lv::test::MemoryRecording m;
    m.description.format = "MEF 3.0";
    m.addChannel("A", 100, 1'000'000, 500, 1);
    m.addChannel("B", 100, 1'000'000, 500, 1, 100, 150);
    lv::test::TempDir dir;
    const std::string out = (dir.path() / "x.vhdr").string();
    auto outcome = write(m, out);
    ASSERT_TRUE(outcome.ok()) << outcome.error().describe();
    EXPECT_NE(text(out).find("BinaryFormat=IEEE_FLOAT_32\r\n"), std::string::npos);
    ASSERT_EQ(outcome->warnings.size(), 1u);
    EXPECT_EQ(outcome->warnings[0], out + ": written as IEEE_FLOAT_32 (not INT_32): some data points miss a sample "
                                          "that others have, and only floats can hold NaN");
    auto r = reopen(out);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->info().channels[1].segments.size(), 1u);
    for (std::size_t c = 0; c < 2; ++c) {
        const std::vector<double> back =
            core::toPhysical({c, 0, lv::test::everyCount(*r, c)}, r->info().channels[c].conversionFactor);
        const std::vector<double> source = core::toPhysical({c, 0, m.grids[c]}, 0.5);
        for (std::size_t i = 0; i < back.size(); ++i)
            if (std::isnan(source[i]))
                ASSERT_TRUE(std::isnan(back[i])) << i;
            else
                ASSERT_EQ(back[i], source[i]) << c << " " << i; // halves of counts below 1000: exact in float32
    }
    EXPECT_EQ(lv::test::readBytes(dir.path() / "x.eeg").size(), 500u * 2 * 4);
    const bv::test::MneReading mne = bv::test::readWithMne(out);
    ASSERT_EQ(mne.values.size(), 2u);
    EXPECT_TRUE(std::isnan(mne.values[1][120]));
    EXPECT_DOUBLE_EQ(mne.values[0][120], 60.0);
}

TEST(BrainVisionExport, EdfCountsAreSixteenBitsUntilOneDoesNotFit)
{
    lv::test::MemoryRecording m;
    m.description.format = "EDF+C";
    m.addChannel("A", 200, 0, 400, 30); // up to 29970: fits 16 bits
    lv::test::TempDir dir;
    auto small = write(m, (dir.path() / "small.vhdr").string());
    ASSERT_TRUE(small.ok()) << small.error().describe();
    EXPECT_NE(text(dir.path() / "small.vhdr").find("BinaryFormat=INT_16\r\n"), std::string::npos);
    EXPECT_EQ(lv::test::readBytes(dir.path() / "small.eeg").size(), 800u);
    m.grids[0][399] = 40'000;
    auto wide = write(m, (dir.path() / "wide.vhdr").string());
    ASSERT_TRUE(wide.ok()) << wide.error().describe();
    EXPECT_NE(text(dir.path() / "wide.vhdr").find("BinaryFormat=INT_32\r\n"), std::string::npos);
    auto r = reopen((dir.path() / "wide.vhdr").string());
    ASSERT_TRUE(r);
    EXPECT_EQ(lv::test::everyCount(*r, 0), m.grids[0]);
    EXPECT_EQ(wide->warnings.back(),
              (dir.path() / "wide.vhdr").string() + ": written as INT_32 (not INT_16): counts exceed 16 bits");
}

TEST(BrainVisionExport, SeveralRatesWriteOneSetEach)
{
    lv::test::MemoryRecording m;
    m.description.format = "MEF 3.0";
    m.addChannel("fast", 256, 0, 512);
    m.addChannel("slow", 32, 0, 64);
    lv::test::TempDir dir;
    auto outcome = write(m, (dir.path() / "two.vhdr").string());
    ASSERT_TRUE(outcome.ok()) << outcome.error().describe();
    const std::vector<std::string> expected = {(dir.path() / "two_256Hz.vhdr").string(),
                                               (dir.path() / "two_32Hz.vhdr").string()};
    EXPECT_EQ(outcome->files, expected);
    for (const std::string& f : expected) {
        auto r = reopen(f);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->info().channels.size(), 1u);
    }
    EXPECT_FALSE(fs::exists(dir.path() / "two.vhdr"));
}

TEST(BrainVisionExport, ExistingOutputsAreRefusedAndACancelledWriteLeavesNothing)
{
    lv::test::MemoryRecording m = gapped();
    lv::test::TempDir dir;
    lv::test::writeBytes(dir.path() / "taken.vmrk", {'x'});
    auto refused = write(m, (dir.path() / "taken.vhdr").string());
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().describe(),
              (dir.path() / "taken.vmrk").string() + ": the output already exists; choose a new name");
    core::CancelToken cancel;
    cancel.cancel();
    core::ReadControl control;
    control.cancel = &cancel;
    auto cancelled = write(m, (dir.path() / "gone.vhdr").string(), control);
    ASSERT_FALSE(cancelled.ok());
    EXPECT_EQ(cancelled.error().code, core::ErrorCode::Cancelled);
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(dir.path())) left.push_back(e.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{"taken.vmrk"});
}

// Real MEF 3.0 sessions: counts, gaps and annotations through BrainVision and back, and MNE's values the same.
TEST(BrainVisionExport, MefReferenceSessionsRoundTripExactly)
{
    for (const std::string name : {"multi_segment", "nan_gap_long", "with_annotations", "multi_channel"}) {
        SCOPED_TRACE(name);
        auto source =
            formats::openRecording({(lv::test::testdata() / "mef3/legacy" / (name + ".mefd")).string(), {}, {}, false});
        ASSERT_TRUE(source.ok()) << source.error().describe();
        lv::test::TempDir dir;
        const std::string out = (dir.path() / (name + ".vhdr")).string();
        auto outcome = write(**source, out);
        ASSERT_TRUE(outcome.ok()) << outcome.error().describe();
        ASSERT_EQ(outcome->files.size(), 1u);
        auto back = reopen(out);
        ASSERT_TRUE(back);
        const core::RecordingInfo& in = (*source)->info();
        ASSERT_EQ(back->info().channels.size(), in.channels.size());
        EXPECT_EQ(back->info().annotations.size(), in.annotations.size());
        const std::vector<std::vector<double>> ours = bv::test::dataPointValues(*back);
        const bv::test::MneReading mne = bv::test::readWithMne(out);
        for (std::size_t c = 0; c < in.channels.size(); ++c) {
            EXPECT_EQ(back->info().channels[c].gaps, in.channels[c].gaps); // a NaN run in a segment too
            EXPECT_EQ(back->info().channels[c].conversionFactor, in.channels[c].conversionFactor);
            const std::vector<std::int32_t> a = lv::test::everyCount(**source, c), b = lv::test::everyCount(*back, c);
            ASSERT_EQ(a.size(), b.size());
            EXPECT_EQ(a, b);
            ASSERT_EQ(mne.values[c].size(), ours[c].size());
            for (std::size_t i = 0; i < ours[c].size(); ++i)
                if (std::isnan(ours[c][i]))
                    ASSERT_TRUE(std::isnan(mne.values[c][i]));
                else
                    ASSERT_NEAR(mne.values[c][i], ours[c][i], std::abs(ours[c][i]) * 1e-12) << i;
        }
    }
}

} // namespace
} // namespace lv::convert

namespace lv::convert {
namespace {

// DataPoints= in the header we write: a data file cut at a data point's end is still told; a marker file cut inside
// a line too.
TEST(BrainVisionExport, ASetWeWroteTellsWhenItsDataOrMarkersAreCutShort)
{
    lv::test::MemoryRecording m = gapped();
    lv::test::TempDir dir;
    const std::string out = (dir.path() / "cut.vhdr").string();
    ASSERT_TRUE(write(m, out).ok());
    EXPECT_NE(text(out).find("DataPoints=768\r\n"), std::string::npos);
    auto eeg = lv::test::readBytes(dir.path() / "cut.eeg");
    eeg.resize(eeg.size() - 8); // one whole data point of two INT_32 channels
    lv::test::writeBytes(dir.path() / "cut.eeg", eeg);
    auto vmrk = lv::test::readBytes(dir.path() / "cut.vmrk");
    vmrk.resize(vmrk.size() - 3);
    lv::test::writeBytes(dir.path() / "cut.vmrk", vmrk);
    auto r = reopen(out);
    ASSERT_TRUE(r);
    const std::vector<std::string> expected = {
        (dir.path() / "cut.eeg").string() +
            " holds 767 data points, the header announces 768: the data file is cut short",
        (dir.path() / "cut.vmrk").string() + " ends inside a line: the marker file may be cut short"};
    EXPECT_EQ(r->info().warnings, expected);
}

} // namespace
} // namespace lv::convert
