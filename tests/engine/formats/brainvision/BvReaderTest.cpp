// The BrainVision reader against the values and markers written by make_reference.py and against MNE's reading of
// the same files: multiplexed and vectorized, INT_16/INT_32/IEEE_FLOAT_32, UTF-8 and Latin-1, segments with a gap.
#include "BvTestSupport.h"

#include "decode/ThreadPool.h"
#include "formats/RecordingOpener.h"
#include "formats/brainvision/BvMarkers.h"
#include "formats/brainvision/BvRecording.h"

#include <gtest/gtest.h>

#include <cmath>

namespace lv::formats::brainvision {
namespace {

using test::dataPointValues;
using test::referenceHeader;
using test::referenceTruth;

std::unique_ptr<BvRecording> open(const std::string& path)
{
    auto r = openBrainVision(path);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().describe());
    return r.ok() ? std::move(*r) : nullptr;
}

bool isFloat(const std::string& name) { return name.find("float") != std::string::npos; }

TEST(BvReader, EveryReferenceCaseReadsToTheWrittenValuesAndToMnes)
{
    for (const std::string& name : test::kReferenceCases) {
        SCOPED_TRACE(name);
        auto r = open(referenceHeader(name));
        ASSERT_TRUE(r);
        const nlohmann::json truth = referenceTruth(name);
        const test::MneReading mne = test::readWithMne(referenceHeader(name));
        const core::RecordingInfo& info = r->info();
        ASSERT_EQ(info.channels.size(), truth["channels"].size());
        ASSERT_EQ(mne.values.size(), info.channels.size());
        EXPECT_EQ(info.start, mne.meta["meas_date_us"].get<std::int64_t>());
        const std::vector<std::vector<double>> ours = dataPointValues(*r);
        for (std::size_t c = 0; c < info.channels.size(); ++c) {
            const core::ChannelInfo& ch = info.channels[c];
            EXPECT_EQ(ch.name, mne.meta["channels"][c]["name"].get<std::string>());
            EXPECT_EQ(ch.unit, mne.meta["channels"][c]["unit"].get<std::string>());
            EXPECT_DOUBLE_EQ(ch.fs, mne.meta["sfreq"].get<double>());
            const nlohmann::json& written = truth["channels"][c]["values"];
            ASSERT_EQ(ours[c].size(), written.size());
            ASSERT_EQ(mne.values[c].size(), written.size());
            // Integers: count x resolution, as numpy computes it. Floats: within half the step they are held at.
            const double tolerance = isFloat(name) ? ch.conversionFactor / 2 : 0.0;
            for (std::size_t i = 0; i < written.size(); ++i) {
                if (written[i].is_null()) {
                    ASSERT_TRUE(std::isnan(ours[c][i])) << "channel " << c << " point " << i;
                    ASSERT_TRUE(std::isnan(mne.values[c][i]));
                    continue;
                }
                const double w = written[i].get<double>();
                ASSERT_NEAR(ours[c][i], w, tolerance) << "channel " << c << " point " << i;
                ASSERT_NEAR(mne.values[c][i], w, std::abs(w) * 1e-12) << "channel " << c << " point " << i;
            }
        }
    }
}

// A marker's time from the truth: its segment's date plus its distance in data points from the segment's start.
core::Uutc markerTime(const nlohmann::json& truth, const nlohmann::json& marker)
{
    core::Uutc date = 0;
    std::int64_t from = 1;
    for (const nlohmann::json& m : truth["markers"])
        if (m["type"] == "New Segment" && m["position"].get<std::int64_t>() <= marker["position"].get<std::int64_t>()) {
            date = *parseMarkerDate(m["date"].get<std::string>());
            from = m["position"].get<std::int64_t>();
        }
    const double us = truth["interval_us"].get<double>();
    return date + std::llround(static_cast<double>(marker["position"].get<std::int64_t>() - from) * us);
}

TEST(BvReader, MarkersAreAnnotationsAtTheirDataPointsTimeWithTheirChannelAndLength)
{
    for (const std::string& name : test::kReferenceCases) {
        SCOPED_TRACE(name);
        auto r = open(referenceHeader(name));
        ASSERT_TRUE(r);
        const nlohmann::json truth = referenceTruth(name);
        const test::MneReading mne = test::readWithMne(referenceHeader(name));
        std::vector<nlohmann::json> markers, mneMarkers;
        for (const nlohmann::json& m : truth["markers"])
            if (m["type"] != "New Segment") markers.push_back(m);
        for (const nlohmann::json& a : mne.meta["annotations"])
            if (a["description"] != "New Segment/") mneMarkers.push_back(a);
        const auto& annotations = r->info().annotations;
        ASSERT_EQ(annotations.size(), markers.size());
        ASSERT_EQ(mneMarkers.size(), markers.size());
        const double us = truth["interval_us"].get<double>();
        for (std::size_t k = 0; k < markers.size(); ++k) {
            const core::Annotation& a = annotations[k];
            const nlohmann::json& m = markers[k];
            EXPECT_EQ(a.type, m["type"].get<std::string>());
            EXPECT_EQ(a.text, m["description"].get<std::string>());
            EXPECT_EQ(a.type + "/" + a.text, mneMarkers[k]["description"].get<std::string>());
            EXPECT_EQ(a.time, markerTime(truth, m));
            const auto size = m["size"].get<std::int64_t>();
            EXPECT_EQ(a.durationUs, size > 1 ? std::llround(static_cast<double>(size) * us) : 0);
            const auto channel = m["channel"].get<std::size_t>();
            if (channel == 0)
                EXPECT_FALSE(a.channel);
            else
                EXPECT_EQ(a.channel.value_or("(none)"), r->info().channels[channel - 1].name);
        }
    }
}

TEST(BvReader, DatedSegmentsLeaveTheTimeBetweenThemAsAGap)
{
    auto r = open(referenceHeader("float_segments"));
    ASSERT_TRUE(r);
    const core::ChannelInfo& ch = r->info().channels[0];
    const core::Uutc t0 = *parseMarkerDate("20220615083000000000");
    ASSERT_EQ(ch.segments.size(), 2u);
    EXPECT_EQ(ch.segments[0].start, t0);
    EXPECT_EQ(ch.segments[0].end, t0 + 4'000'000); // 2048 points at 512 Hz
    EXPECT_EQ(ch.segments[1].start, t0 + 14'000'000);
    EXPECT_EQ(ch.segments[1].end, t0 + 18'000'000);
    ASSERT_EQ(ch.gaps.size(), 1u);
    EXPECT_EQ(ch.gaps[0].start, t0 + 4'000'000);
    EXPECT_EQ(ch.gaps[0].end, t0 + 14'000'000);
    EXPECT_EQ(ch.sampleCount, 4096);
    EXPECT_EQ(ch.gridLength, 18 * 512);
}

TEST(BvReader, Latin1TextsEscapedCommasAndTheCommentReadAsWritten)
{
    auto latin1 = open(referenceHeader("vec_int32_latin1"));
    ASSERT_TRUE(latin1);
    EXPECT_EQ(latin1->info().channels[0].name, "Fp\xC3\x9F");
    EXPECT_EQ(latin1->info().channels[0].unit, "\xC2\xB5V");
    EXPECT_EQ(latin1->info().description, "Impedance [kOhm] at 10:00:00 :\nFp\xC3\x9F: 5\nO2: 7");
    auto utf8 = open(referenceHeader("mux_int16"));
    ASSERT_TRUE(utf8);
    EXPECT_EQ(utf8->info().channels[3].name, "EOG,left");
    EXPECT_EQ(utf8->info().channels[3].description, "coordinates 1,30,-15");
    EXPECT_EQ(utf8->info().annotations.back().text, "eyes, closed");
    EXPECT_EQ(utf8->info().format, "BrainVision");
    auto v2 = open(referenceHeader("vec_float_v2"));
    ASSERT_TRUE(v2);
    EXPECT_EQ(v2->info().format, "BrainVision 2.0");
}

TEST(BvReader, BlocksDecodeToWhatSlicesReadOnAnyNumberOfThreads)
{
    for (const std::string& name : test::kReferenceCases) {
        SCOPED_TRACE(name);
        auto r = open(referenceHeader(name));
        ASSERT_TRUE(r);
        const core::RecordingInfo& info = r->info();
        decode::ThreadPool pool(2);
        for (std::size_t c = 0; c < info.channels.size(); ++c) {
            std::vector<std::int32_t> one(static_cast<std::size_t>(info.channels[c].gridLength));
            std::vector<std::int32_t> two(one.size());
            const core::RawSlice a{c, 0, one}, b{c, 0, two};
            ASSERT_TRUE(r->readRaw(std::span(&a, 1), {}).ok());
            core::ReadControl threads;
            threads.runner = &pool;
            ASSERT_TRUE(r->readRaw(std::span(&b, 1), threads).ok());
            EXPECT_EQ(one, two);
            std::size_t decoded = 0;
            for (std::size_t k = 0; k < r->blocks(c).size(); ++k) {
                const core::BlockSpan& span = r->blocks(c)[k];
                std::vector<std::int32_t> block(span.count);
                ASSERT_TRUE(r->decodeBlock(c, k, block, {}).ok());
                ASSERT_TRUE(std::equal(block.begin(), block.end(), one.begin() + span.first)) << "block " << k;
                decoded += span.count;
            }
            EXPECT_EQ(decoded, static_cast<std::size_t>(info.channels[c].sampleCount));
        }
    }
}

TEST(BvReader, TheOpenerChoosesItByNameAndByContent)
{
    auto byName = openRecording({referenceHeader("mux_int16"), {}, {}, false});
    ASSERT_TRUE(byName.ok()) << byName.error().describe();
    EXPECT_EQ((*byName)->info().format, "BrainVision");
    lv::test::TempDir dir;
    lv::test::copyTree(test::referenceFolder() / "mux_int16", dir.path());
    std::filesystem::rename(dir.path() / "mux_int16.vhdr", dir.path() / "header.txt");
    auto byContent = openRecording({(dir.path() / "header.txt").string(), {}, {}, false});
    ASSERT_TRUE(byContent.ok()) << byContent.error().describe();
    EXPECT_EQ((*byContent)->info().channels.size(), 4u);
    ASSERT_NE(readableFormatOf("x/rec.VHDR"), nullptr);
    EXPECT_EQ(readableFormatOf("x/rec.VHDR")->name, "BrainVision");
}

} // namespace
} // namespace lv::formats::brainvision
