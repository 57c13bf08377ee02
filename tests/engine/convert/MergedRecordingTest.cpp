// A synthetic session split in time (MEF and EDF parts) and merged back reads as the original sample for sample;
// overlaps, rate and unit mismatches are refused with exact messages; reads and exports of a merge cancel.
#include "convert/MergedRecording.h"
#include "convert/StackedRecording.h"

#include "convert/EdfExport.h"
#include "convert/MefExport.h"
#include "convert/SynthExport.h"
#include "core/TimeFormat.h"
#include "decode/ThreadPool.h"
#include "formats/RecordingOpener.h"
#include "formats/mef3/SessionWriter.h"
#include "support/MemoryRecording.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <gtest/gtest.h>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

constexpr core::Uutc kSecond = 1'000'000;

std::unique_ptr<core::Recording> open(const fs::path& path)
{
    auto r = formats::openRecording({path.string(), {}, {}});
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r.ok() ? std::move(*r) : nullptr;
}

// Every channel's grid over [start, end) of channel `c` of `r`, read in one call.
std::vector<std::int32_t> readChannel(core::Recording& r, std::size_t c, const core::ReadControl& control = {})
{
    const core::ChannelInfo& ch = r.info().channels[c];
    std::vector<std::int32_t> out(static_cast<std::size_t>(ch.gridLength), core::kNoSample);
    const core::RawSlice slice{c, 0, out};
    const core::Status s = r.readRaw(std::span(&slice, 1), control);
    EXPECT_TRUE(s.ok()) << s.error().describe();
    return out;
}

class MergedRecordingTest : public ::testing::Test {
protected:
    // 4 channels x 3 minutes at 256 Hz; with gaps: pauses and NaN runs.
    fs::path synth(const std::string& name, bool gaps, double fs = 256.0, core::Uutc start = kDefaultSynthStart)
    {
        SynthOptions o;
        o.channels = 4;
        o.hours = 0.05;
        o.fs = fs;
        o.seed = 7;
        o.gaps = gaps;
        o.start = start;
        const fs::path path = m_dir.path() / name;
        const core::Status s = writeSynthSession(o, path.string(), control());
        EXPECT_TRUE(s.ok()) << s.error().describe();
        return path;
    }
    fs::path mefPart(core::Recording& source, const std::string& name, core::TimeRange range)
    {
        MefExportOptions o;
        o.range = range;
        const fs::path path = m_dir.path() / name;
        const core::Status s = exportMef(source, o, path.string(), control());
        EXPECT_TRUE(s.ok()) << s.error().describe();
        return path;
    }
    fs::path edfPart(core::Recording& source, const std::string& name, core::TimeRange range)
    {
        EdfExportOptions o;
        o.range = range;
        const fs::path path = m_dir.path() / name;
        auto r = exportEdf(source, o, path.string(), control());
        EXPECT_TRUE(r.ok()) << r.error().describe();
        return path;
    }
    // The source's channels over `range`, written with their physical values on steps of `factor`.
    fs::path rescaledPart(core::Recording& source, const std::string& name, core::TimeRange range, double factor)
    {
        const fs::path path = m_dir.path() / name;
        auto writer = formats::mef3::SessionWriter::create(path.string(), {});
        EXPECT_TRUE(writer.ok());
        for (std::size_t c = 0; c < source.info().channels.size(); ++c) {
            const core::ChannelInfo& ch = source.info().channels[c];
            auto index = (*writer)->addChannel({ch.name, ch.fs, ch.unit, factor, ""});
            const std::size_t channels[] = {c};
            auto got = core::readRange(source, channels, range, {});
            EXPECT_TRUE(index.ok() && got.ok());
            const auto values = core::toPhysical(got->front(), ch.conversionFactor, ch.offset);
            EXPECT_TRUE((*writer)->appendPhysical(*index, ch.grid(), got->front().firstSample, values).ok());
        }
        EXPECT_TRUE((*writer)->finish().ok());
        return path;
    }
    core::Result<std::unique_ptr<core::Recording>> merge(const std::vector<fs::path>& paths,
                                                         const MergeOptions& options = {})
    {
        std::vector<std::string> names;
        for (const fs::path& p : paths) names.push_back(p.string());
        return openMerged(names, {}, {}, options);
    }
    core::ReadControl control()
    {
        core::ReadControl c;
        c.runner = &m_pool;
        return c;
    }

    test::TempDir m_dir;
    decode::ThreadPool m_pool{2};
};

TEST_F(MergedRecordingTest, MefPartsMergeBackToTheOriginalSampleForSample)
{
    auto source = open(synth("orig.mefd", true));
    ASSERT_TRUE(source);
    const core::RecordingInfo& a = source->info();
    const core::Uutc cut = a.start + 97 * kSecond + 3'906; // between two samples, not on a second
    const fs::path early = mefPart(*source, "early.mefd", {a.start, cut});
    const fs::path late = mefPart(*source, "late.mefd", {cut, a.end});
    auto merged = merge({late, early}); // given out of order: placed by time
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    const core::RecordingInfo& b = (*merged)->info();
    EXPECT_TRUE(b.warnings.empty()) << b.warnings.front();
    EXPECT_EQ(b.start, a.start);
    EXPECT_EQ(b.end, a.end);
    ASSERT_EQ(b.channels.size(), a.channels.size());
    std::size_t gaps = 0;
    for (std::size_t c = 0; c < a.channels.size(); ++c) {
        const core::ChannelInfo &x = a.channels[c], &y = b.channels[c];
        EXPECT_EQ(y.name, x.name);
        EXPECT_EQ(y.fs, x.fs);
        EXPECT_EQ(y.unit, x.unit);
        EXPECT_EQ(y.conversionFactor, x.conversionFactor);
        EXPECT_EQ(y.start, x.start);
        EXPECT_EQ(y.end, x.end);
        EXPECT_EQ(y.gridLength, x.gridLength);
        EXPECT_EQ(y.sampleCount, x.sampleCount);
        EXPECT_EQ(y.gaps, x.gaps) << x.name;
        gaps += x.gaps.size();
        EXPECT_TRUE(readChannel(**merged, c, control()) == readChannel(*source, c, control())) << x.name;
    }
    EXPECT_GT(gaps, 0u); // the synthetic session has pauses and NaN runs
    ASSERT_EQ(b.annotations.size(), a.annotations.size());
    for (std::size_t i = 0; i < a.annotations.size(); ++i) {
        EXPECT_EQ(b.annotations[i].time, a.annotations[i].time);
        EXPECT_EQ(b.annotations[i].text, a.annotations[i].text);
    }

    // The merge written by the MEF writer reads back the same.
    const fs::path out = m_dir.path() / "merged.mefd";
    MefExportOptions o;
    o.range = {b.start, b.end};
    const core::Status written = exportMef(**merged, o, out.string(), control());
    ASSERT_TRUE(written.ok()) << written.error().describe();
    auto copy = open(out);
    ASSERT_TRUE(copy);
    for (std::size_t c = 0; c < a.channels.size(); ++c) {
        EXPECT_EQ(copy->info().channels[c].gaps, a.channels[c].gaps);
        EXPECT_TRUE(readChannel(*copy, c) == readChannel(*source, c)) << a.channels[c].name;
    }
}

// Samples of the late part (from `holeEnd` on) must lie within `tolerance(channel)` of the original, the early MEF
// part's exactly (to floating-point noise), the hole must be empty; with `filled`, the late part may hold values
// where the original has none (EDF fills NaN runs inside records). Returns the number of samples that do not.
std::size_t compareWithHole(core::Recording& source, core::Recording& merged, core::Uutc holeStart, core::Uutc holeEnd,
                            const std::function<double(std::size_t)>& tolerance, bool filled = false)
{
    std::size_t worse = 0;
    for (std::size_t c = 0; c < source.info().channels.size(); ++c) {
        const core::ChannelInfo &x = source.info().channels[c], &y = merged.info().channels[c];
        EXPECT_EQ(y.start, x.start);
        EXPECT_EQ(y.gridLength, x.gridLength);
        const auto want = readChannel(source, c), got = readChannel(merged, c);
        if (got.size() != want.size()) return want.size();
        const auto holeFirst = static_cast<std::size_t>(x.grid().firstIndexAtOrAfter(holeStart));
        const auto holeLast = static_cast<std::size_t>(x.grid().firstIndexAtOrAfter(holeEnd));
        for (std::size_t i = 0; i < want.size(); ++i) {
            const bool inHole = i >= holeFirst && i < holeLast;
            if (filled && i >= holeLast && want[i] == core::kNoSample) continue;
            if (inHole || want[i] == core::kNoSample || got[i] == core::kNoSample) {
                worse += inHole ? got[i] != core::kNoSample : got[i] != want[i];
                continue;
            }
            const double err = std::abs(got[i] * y.conversionFactor + y.offset - want[i] * x.conversionFactor);
            worse += err > (i < holeFirst ? 1e-9 : tolerance(c));
        }
    }
    return worse;
}

TEST_F(MergedRecordingTest, MefAndEdfPartsWithAHoleMergeExactly)
{
    auto source = open(synth("orig.mefd", false));
    ASSERT_TRUE(source);
    const core::RecordingInfo& a = source->info();
    const core::Uutc holeStart = a.start + 60 * kSecond, holeEnd = a.start + 75 * kSecond;
    const fs::path early = mefPart(*source, "early.mefd", {a.start, holeStart});
    const fs::path late = edfPart(*source, "late.edf", {holeEnd, a.end});
    auto merged = merge({early, late});
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    const core::RecordingInfo& b = (*merged)->info();
    EXPECT_EQ(b.format, "merged (MEF 3.0, EDF+C)");
    EXPECT_TRUE(b.warnings.empty()) << b.warnings.front(); // both parts' values held exactly
    for (std::size_t c = 0; c < a.channels.size(); ++c) {
        const core::ChannelInfo &x = a.channels[c], &y = b.channels[c];
        // The EDF writer puts its physical range on the source's grid: the parts share the step.
        EXPECT_EQ(y.conversionFactor, x.conversionFactor);
        EXPECT_EQ(y.offset, 0.0);
        EXPECT_EQ(y.gaps, (std::vector<core::TimeRange>{{holeStart, holeEnd}})) << x.name;
    }
    EXPECT_EQ(compareWithHole(*source, **merged, holeStart, holeEnd, [](std::size_t) { return 1e-9; }), 0u);
}

// A part whose times are relative to its start cannot be placed on a shared time axis: both modes refuse it,
// naming it (its path, or "part N" when it has none).
TEST_F(MergedRecordingTest, APartWithRelativeTimesIsRefusedByBothModes)
{
    const auto parts = [] {
        auto first = std::make_unique<test::MemoryRecording>(), second = std::make_unique<test::MemoryRecording>();
        first->addChannel("c", 100, kDefaultSynthStart, 1000);
        first->description.path = "/data/a.edf";
        second->addChannel("c", 100, kDefaultSynthStart + 20 * kSecond, 1000);
        second->description.timesKnown = false;
        std::vector<std::unique_ptr<core::Recording>> both;
        both.push_back(std::move(first));
        both.push_back(std::move(second));
        return both;
    };
    const auto merged = MergedRecording::create(parts());
    ASSERT_FALSE(merged.ok());
    EXPECT_EQ(merged.error().code, core::ErrorCode::Unsupported);
    EXPECT_EQ(merged.error().path, "part 2");
    EXPECT_EQ(merged.error().message,
              "its times are relative to its start (the level-2 password would give them); merging needs true times");
    const auto stacked = StackedRecording::create(parts());
    ASSERT_FALSE(stacked.ok());
    EXPECT_EQ(stacked.error().path, "part 2");
    EXPECT_EQ(stacked.error().message,
              "its times are relative to its start (the level-2 password would give them); stacking needs true times");
}

// Parts whose grids lie half a step apart (EDF files whose physical range is centred on their data, as many
// writers make them) merge at half the step, every value exact.
TEST_F(MergedRecordingTest, PartsHalfAStepApartMergeAtHalfTheStep)
{
    auto first = std::make_unique<test::MemoryRecording>(), second = std::make_unique<test::MemoryRecording>();
    first->addChannel("c", 100, kDefaultSynthStart, 1000);
    second->addChannel("c", 100, kDefaultSynthStart + 20 * kSecond, 1000);
    second->description.channels[0].offset = 0.25; // half of its 0.5 step
    const auto want = [&](const test::MemoryRecording& r, std::int64_t i) {
        return r.grids[0][static_cast<std::size_t>(i)] * 0.5 + r.description.channels[0].offset;
    };
    const test::MemoryRecording &x = *first, &y = *second;
    std::vector<std::unique_ptr<core::Recording>> parts;
    parts.push_back(std::move(first));
    parts.push_back(std::move(second));
    auto merged = MergedRecording::create(std::move(parts));
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    const core::ChannelInfo& ch = (*merged)->info().channels[0];
    EXPECT_EQ(ch.conversionFactor, 0.25);
    EXPECT_EQ(ch.offset, 0.0);
    EXPECT_TRUE((*merged)->info().warnings.empty());
    const auto counts = readChannel(**merged, 0);
    ASSERT_EQ(counts.size(), 3000u);
    for (std::int64_t i = 0; i < 1000; ++i) {
        EXPECT_EQ(counts[static_cast<std::size_t>(i)] * 0.25, want(x, i)) << i;
        EXPECT_EQ(counts[static_cast<std::size_t>(2000 + i)] * 0.25, want(y, i)) << i;
    }
}

TEST_F(MergedRecordingTest, UnrelatedScalesAreRoundedToTheFirstPartsWithAWarning)
{
    auto source = open(synth("orig.mefd", true));
    ASSERT_TRUE(source);
    const core::RecordingInfo& a = source->info();
    const core::Uutc holeStart = a.start + 60 * kSecond, holeEnd = a.start + 75 * kSecond;
    const fs::path early = mefPart(*source, "early.mefd", {a.start, holeStart});
    const fs::path late = rescaledPart(*source, "late.mefd", {holeEnd, a.end}, 0.0123457); // no common step
    auto merged = merge({early, late});
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    const core::RecordingInfo& b = (*merged)->info();
    ASSERT_EQ(b.warnings.size(), a.channels.size());
    EXPECT_EQ(b.warnings[0], "channel \"ch001\": the values of " + late.string() +
                                 " (steps of 0.0123457 uV) are rounded to the steps of " + early.string() +
                                 " (0.1 uV), at most half a step off");
    EXPECT_EQ(b.channels[0].conversionFactor, a.channels[0].conversionFactor);
    // The late part's own rounding (half its step) plus the merge's (half of 0.1 uV).
    const auto bound = [](std::size_t) { return 0.0123457 / 2 + 0.05 + 1e-9; };
    EXPECT_EQ(compareWithHole(*source, **merged, holeStart, holeEnd, bound), 0u);
}

TEST_F(MergedRecordingTest, OverlappingPartsAreRefusedNamingBothFilesAndTheInterval)
{
    auto source = open(synth("orig.mefd", false));
    ASSERT_TRUE(source);
    const core::Uutc t0 = source->info().start;
    const fs::path early = mefPart(*source, "early.mefd", {t0, t0 + 100 * kSecond});
    const fs::path late = mefPart(*source, "late.mefd", {t0 + 80 * kSecond, source->info().end});
    auto merged = merge({late, early});
    ASSERT_FALSE(merged.ok());
    EXPECT_EQ(merged.error().code, core::ErrorCode::Unsupported);
    EXPECT_EQ(merged.error().message, early.string() + " and " + late.string() +
                                          " overlap in channel \"ch001\" from 2025-01-01T00:01:20.000000+00:00 to "
                                          "2025-01-01T00:01:40.000000+00:00");
}

TEST_F(MergedRecordingTest, DifferentRatesForOneChannelAreRefused)
{
    const fs::path a = synth("a.mefd", false, 256.0);
    const fs::path b = synth("b.mefd", false, 200.0, kDefaultSynthStart + 3600 * kSecond);
    auto merged = merge({a, b});
    ASSERT_FALSE(merged.ok());
    EXPECT_EQ(merged.error().code, core::ErrorCode::InvalidArgument); // the user's combination: exit 2
    EXPECT_EQ(merged.error().message, "channel \"ch001\" is sampled at 256 Hz in " + a.string() + " but at 200 Hz in " +
                                          b.string() + "; merged parts need one rate per channel");
}

TEST_F(MergedRecordingTest, ChannelsAreTheUnionInFirstSeenOrder)
{
    auto source = open(synth("orig.mefd", false));
    ASSERT_TRUE(source);
    const core::Uutc t0 = source->info().start, cut = t0 + 30 * kSecond;
    MefExportOptions o;
    o.channels = {2, 0};
    o.range = {t0, cut};
    ASSERT_TRUE(exportMef(*source, o, (m_dir.path() / "x.mefd").string(), control()).ok());
    o.channels = {1, 2};
    o.range = {cut, source->info().end};
    ASSERT_TRUE(exportMef(*source, o, (m_dir.path() / "y.mefd").string(), control()).ok());
    auto merged = merge({m_dir.path() / "x.mefd", m_dir.path() / "y.mefd"});
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    std::vector<std::string> expected;
    for (const auto* name : {"x.mefd", "y.mefd"}) {
        const auto part = open(m_dir.path() / name);
        for (const core::ChannelInfo& ch : part->info().channels)
            if (std::find(expected.begin(), expected.end(), ch.name) == expected.end()) expected.push_back(ch.name);
    }
    const core::RecordingInfo& info = (*merged)->info();
    ASSERT_EQ(info.channels.size(), 3u);
    for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(info.channels[c].name, expected[c]);
    const auto& both = info.channels[static_cast<std::size_t>(info.channelIndex("ch003"))];
    EXPECT_TRUE(both.gaps.empty()); // in both parts: continuous
    EXPECT_EQ(info.channels[static_cast<std::size_t>(info.channelIndex("ch001"))].end, cut);   // first part only
    EXPECT_EQ(info.channels[static_cast<std::size_t>(info.channelIndex("ch002"))].start, cut); // second part only
    EXPECT_TRUE(readChannel(**merged, static_cast<std::size_t>(info.channelIndex("ch003"))) == readChannel(*source, 2));
}

TEST_F(MergedRecordingTest, ReadsAndExportsOfAMergeCancel)
{
    auto source = open(synth("orig.mefd", false));
    ASSERT_TRUE(source);
    const core::Uutc t0 = source->info().start, cut = t0 + 90 * kSecond;
    auto merged = merge({mefPart(*source, "a.mefd", {t0, cut}), mefPart(*source, "b.mefd", {cut, source->info().end})});
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    core::CancelToken cancel;
    cancel.cancel();
    core::ReadControl c = control();
    c.cancel = &cancel;
    std::vector<std::int32_t> out(1000);
    const core::RawSlice slice{0, 0, out};
    const core::Status read = (*merged)->readRaw(std::span(&slice, 1), c);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().code, core::ErrorCode::Cancelled);

    // Cancelled after the first progress report: the export stops, leaving nothing behind.
    core::CancelToken later;
    std::uint64_t reports = 0, lastDone = 0, lastTotal = 0;
    c.cancel = &later;
    c.progress = [&](std::uint64_t done, std::uint64_t total) {
        ++reports, lastDone = done, lastTotal = total;
        later.cancel();
    };
    const fs::path target = m_dir.path() / "merged.mefd";
    MefExportOptions o;
    o.range = {(*merged)->info().start, (*merged)->info().end};
    const core::Status written = exportMef(**merged, o, target.string(), c);
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.error().code, core::ErrorCode::Cancelled);
    EXPECT_EQ(reports, 1u);
    EXPECT_LT(lastDone, lastTotal);
    for (const auto& e : fs::directory_iterator(m_dir.path()))
        EXPECT_NE(e.path().filename().string().rfind("merged", 0), 0u) << e.path();

    // Progress of a plain read covers both parts, in samples, up to the total.
    core::ReadControl p = control();
    std::uint64_t done = 0, total = 0;
    p.progress = [&](std::uint64_t d, std::uint64_t t) { done = std::max(done, d), total = t; };
    std::vector<std::int32_t> all(static_cast<std::size_t>((*merged)->info().channels[0].gridLength));
    const core::RawSlice whole{0, 0, all};
    ASSERT_TRUE((*merged)->readRaw(std::span(&whole, 1), p).ok());
    EXPECT_EQ(total, all.size());
    EXPECT_EQ(done, total);
}

} // namespace
} // namespace lv::convert
