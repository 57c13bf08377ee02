// The synthetic session: the same bytes for the same seed on any thread count, and what the plan promises
// (pauses, NaN runs, annotations, segments, start time) is what a reader finds.
#include "convert/SynthExport.h"

#include "decode/ThreadPool.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Validator.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

// Relative path -> bytes of every file under `root`.
std::map<std::string, std::vector<std::uint8_t>> tree(const fs::path& root)
{
    std::map<std::string, std::vector<std::uint8_t>> files;
    for (const auto& e : fs::recursive_directory_iterator(root))
        if (e.is_regular_file()) files[fs::relative(e.path(), root).string()] = test::readBytes(e.path());
    return files;
}

SynthOptions small()
{
    SynthOptions o;
    o.channels = 3;
    o.hours = 0.1; // six minutes
    o.fs = 100.5;
    o.seed = 7;
    o.segmentMinutes = 2.5;
    o.start = 1'600'000'000'123'456;
    return o;
}

core::Status write(const SynthOptions& o, const fs::path& out, std::size_t threads)
{
    decode::ThreadPool pool(threads);
    core::ReadControl control;
    control.runner = &pool;
    return writeSynthSession(o, out.string(), control);
}

TEST(SynthExport, SameSeedGivesTheSameBytesOnAnyThreadCount)
{
    test::TempDir one, two, three; // the same session name in each: names are part of the bytes
    ASSERT_TRUE(write(small(), one.path() / "s.mefd", 1).ok());
    ASSERT_TRUE(write(small(), two.path() / "s.mefd", 2).ok());
    SynthOptions other = small();
    other.seed = 8;
    ASSERT_TRUE(write(other, three.path() / "s.mefd", 2).ok());
    const auto a = tree(one.path() / "s.mefd");
    EXPECT_EQ(a.size(), 3u * 3 * 3 + 2 + 2); // 3 channels x 3 segments x 3 files, session and channel records
    EXPECT_TRUE(a == tree(two.path() / "s.mefd"));
    EXPECT_FALSE(a == tree(three.path() / "s.mefd"));
}

TEST(SynthExport, ReaderFindsThePlannedPausesNanRunsAnnotationsAndSegments)
{
    test::TempDir dir;
    const SynthOptions o = small();
    const fs::path out = dir.path() / "s.mefd";
    ASSERT_TRUE(write(o, out, 2).ok());
    const SynthPlan plan = planSynth(o);
    ASSERT_FALSE(plan.pauses.empty());
    ASSERT_FALSE(plan.nanRuns.empty());
    auto r = formats::mef3::openMef3(out.string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const core::RecordingInfo& info = (*r)->info();
    ASSERT_EQ(info.channels.size(), 3u);
    EXPECT_EQ(info.start, o.start);
    const core::SampleGrid grid{o.start, o.fs};
    for (std::size_t c = 0; c < 3; ++c) {
        const core::ChannelInfo& ch = info.channels[c];
        EXPECT_EQ(ch.segments.size(), 3u) << ch.name;
        EXPECT_EQ(ch.unit, "uV");
        std::int64_t missing = 0; // grid points the plan leaves empty in this channel
        std::vector<bool> empty(static_cast<std::size_t>(plan.samples), false);
        for (const auto& p : plan.pauses) std::fill_n(empty.begin() + p.first, p.count, true);
        for (const auto& n : plan.nanRuns)
            if (n.channel == c) std::fill_n(empty.begin() + n.range.first, n.range.count, true);
        for (bool e : empty) missing += e;
        EXPECT_EQ(ch.sampleCount, plan.samples - missing) << ch.name;
        const std::size_t channels[] = {c};
        auto got = core::readRange(**r, channels, {grid.timeOf(0), grid.timeOf(plan.samples)}, {});
        ASSERT_TRUE(got.ok());
        const auto& raw = got->front().raw;
        ASSERT_EQ(raw.size(), empty.size());
        for (std::size_t i = 0; i < raw.size(); ++i)
            ASSERT_EQ(raw[i] == core::kNoSample, empty[i]) << ch.name << " " << i;
    }
    ASSERT_EQ(info.annotations.size(), plan.annotations.size());
    for (std::size_t i = 0; i < plan.annotations.size(); ++i) {
        EXPECT_EQ(info.annotations[i].time, plan.annotations[i].time);
        EXPECT_EQ(info.annotations[i].text, plan.annotations[i].text);
    }
    auto problems = formats::mef3::validateSession(out.string(), "");
    ASSERT_TRUE(problems.ok());
    EXPECT_TRUE(problems->empty());
}

TEST(SynthExport, NoGapsMeansNoGapsAndCancellingLeavesNothing)
{
    test::TempDir dir;
    SynthOptions o = small();
    o.gaps = false;
    o.segmentMinutes = 0;
    ASSERT_TRUE(write(o, dir.path() / "n.mefd", 2).ok());
    auto r = formats::mef3::openMef3((dir.path() / "n.mefd").string(), {});
    ASSERT_TRUE(r.ok());
    for (const core::ChannelInfo& ch : (*r)->info().channels) EXPECT_TRUE(ch.gaps.empty()) << ch.name;

    core::CancelToken cancel;
    cancel.cancel();
    core::ReadControl control;
    control.cancel = &cancel;
    const core::Status s = writeSynthSession(o, (dir.path() / "x.mefd").string(), control);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, core::ErrorCode::Cancelled);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

} // namespace
} // namespace lv::convert
