// Merge modes on real sessions: overlapping inputs concatenated under First and Last give exactly the kept input's
// samples, gaps and annotations; stacked inputs at different rates keep every channel's own samples, with name
// clashes prefixed by file name; the dry run's time line matches what the merge writes.
#include "convert/EdfExport.h"
#include "convert/MergedRecording.h"
#include "convert/SynthExport.h"
#include "formats/RecordingOpener.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

constexpr core::Uutc kSecond = 1'000'000;
constexpr core::Uutc kT0 = kDefaultSynthStart;

std::unique_ptr<core::Recording> open(const fs::path& path)
{
    auto r = formats::openRecording({path.string(), {}, {}});
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r.ok() ? std::move(*r) : nullptr;
}

std::vector<std::int32_t> readChannel(core::Recording& r, std::size_t c, std::int64_t first, std::int64_t count)
{
    std::vector<std::int32_t> out(static_cast<std::size_t>(count), core::kNoSample);
    const core::RawSlice slice{c, first, out};
    const core::Status s = r.readRaw(std::span(&slice, 1), {});
    EXPECT_TRUE(s.ok()) << s.error().describe();
    return out;
}

class MergeModes : public ::testing::Test {
protected:
    // 2 channels x 3 minutes of seed `seed` starting `offset` seconds after kT0, with pauses and NaN runs.
    fs::path synth(const std::string& name, std::uint64_t seed, core::Uutc offset, double fs = 256.0,
                   std::size_t channels = 2)
    {
        SynthOptions o;
        o.channels = channels;
        o.hours = 0.05;
        o.fs = fs;
        o.seed = seed;
        o.start = kT0 + offset * kSecond;
        const fs::path path = m_dir.path() / name;
        EXPECT_TRUE(writeSynthSession(o, path.string(), {}).ok());
        return path;
    }
    std::unique_ptr<core::Recording> merged(const std::vector<fs::path>& paths, MergeOptions options)
    {
        std::vector<std::string> names;
        for (const fs::path& p : paths) names.push_back(p.string());
        auto m = openMerged(names, {}, {}, options);
        EXPECT_TRUE(m.ok()) << m.error().describe();
        return m.ok() ? std::move(*m) : nullptr;
    }
    test::TempDir m_dir;
};

TEST_F(MergeModes, OverlapFirstKeepsTheEarlierInputAndLastTheLater)
{
    const fs::path a = synth("a.mefd", 1, 0), b = synth("b.mefd", 2, 100); // overlap from 100 s to 180 s
    auto ra = open(a), rb = open(b);
    ASSERT_TRUE(ra && rb);
    const std::int64_t shift = 100 * 256, length = 180 * 256;
    for (auto [policy, order] : {std::pair{OverlapPolicy::First, std::vector{b, a}},
                                 {OverlapPolicy::First, {a, b}},
                                 {OverlapPolicy::Last, {b, a}},
                                 {OverlapPolicy::Last, {a, b}}}) {
        auto m = merged(order, {MergeMode::Concat, policy}); // the order given does not matter
        ASSERT_TRUE(m);
        const core::RecordingInfo& info = m->info();
        ASSERT_EQ(info.channels.size(), 2u);
        const std::int64_t cut = policy == OverlapPolicy::First ? length : shift; // merged index where b takes over
        for (std::size_t c = 0; c < 2; ++c) {
            const core::ChannelInfo& ch = info.channels[c];
            EXPECT_EQ(ch.start, kT0);
            EXPECT_EQ(ch.gridLength, shift + length);
            const auto got = readChannel(*m, c, 0, ch.gridLength);
            const auto fromA = readChannel(*ra, c, 0, cut);
            const auto fromB = readChannel(*rb, c, cut - shift, shift + length - cut);
            EXPECT_TRUE(std::equal(fromA.begin(), fromA.end(), got.begin())) << c;
            EXPECT_TRUE(std::equal(fromB.begin(), fromB.end(), got.begin() + cut)) << c;
            // Gaps: a's before the cut, b's after it, on one grid.
            std::vector<core::TimeRange> want;
            for (const core::TimeRange& g : ra->info().channels[c].gaps)
                if (g.start < kT0 + cut * kSecond / 256)
                    want.push_back({g.start, std::min(g.end, kT0 + cut * kSecond / 256)});
            for (const core::TimeRange& g : rb->info().channels[c].gaps)
                if (g.end > kT0 + cut * kSecond / 256)
                    want.push_back({std::max(g.start, kT0 + cut * kSecond / 256), g.end});
            EXPECT_EQ(ch.gaps, want) << c;
        }
        const std::string kept = policy == OverlapPolicy::First ? a.string() : b.string();
        ASSERT_FALSE(info.warnings.empty());
        EXPECT_NE(info.warnings.front().find("overlap in channel \"ch001\" from 2025-01-01T00:01:40.000000+00:00 to "
                                             "2025-01-01T00:03:00.000000+00:00: the samples of " +
                                             kept + " are kept (20480 of "),
                  std::string::npos)
            << info.warnings.front();
        // Every annotation of both inputs is kept.
        EXPECT_EQ(info.annotations.size(), ra->info().annotations.size() + rb->info().annotations.size());
    }
}

TEST_F(MergeModes, ThePlanIsWhatTheMergeWritesAndAnErrorUnderTheDefaultPolicy)
{
    const fs::path a = synth("a.mefd", 1, 0), b = synth("b.mefd", 2, 100);
    auto refused = planMerge({a.string(), b.string()}, {}, {}, {});
    ASSERT_TRUE(refused.ok()) << refused.error().describe();
    ASSERT_TRUE(refused->error);
    EXPECT_EQ(refused->error->message, a.string() + " and " + b.string() +
                                           " overlap in channel \"ch001\" from 2025-01-01T00:01:40.000000+00:00 to "
                                           "2025-01-01T00:03:00.000000+00:00");
    EXPECT_FALSE(openMerged({a.string(), b.string()}, {}, {}, {}).ok());
    auto plan = planMerge({a.string(), b.string()}, {}, {}, {MergeMode::Concat, OverlapPolicy::Last});
    ASSERT_TRUE(plan.ok());
    EXPECT_FALSE(plan->error);
    auto m = merged({a, b}, {MergeMode::Concat, OverlapPolicy::Last});
    ASSERT_EQ(plan->channels.size(), m->info().channels.size());
    for (std::size_t c = 0; c < plan->channels.size(); ++c) {
        const auto& ch = plan->channels[c];
        EXPECT_EQ(ch.gaps, m->info().channels[c].gaps);
        ASSERT_EQ(ch.parts.size(), 2u);
        EXPECT_EQ(ch.parts[0].input, 0u);
        EXPECT_EQ(ch.parts[0].span, (core::TimeRange{kT0, kT0 + 100 * kSecond}));
        EXPECT_EQ(ch.parts[1].input, 1u);
        EXPECT_EQ(ch.parts[1].span, (core::TimeRange{kT0 + 100 * kSecond, kT0 + 280 * kSecond}));
        ASSERT_EQ(ch.overlaps.size(), 1u);
        EXPECT_EQ(ch.overlaps[0].kept, 1u);
        EXPECT_EQ(ch.overlaps[0].droppedSamples, 80 * 256);
    }
    EXPECT_EQ(plan->span, (core::TimeRange{m->info().start, m->info().end}));
}

TEST_F(MergeModes, StackKeepsEveryChannelAtItsOwnRateAndPrefixesClashingNames)
{
    const fs::path eeg = synth("eeg.mefd", 1, 0, 256.0, 3), ecg = synth("ecg.mefd", 2, 30, 200.0, 2);
    auto re = open(eeg), rc = open(ecg);
    auto m = merged({eeg, ecg}, {MergeMode::Stack, OverlapPolicy::Error});
    ASSERT_TRUE(m);
    const core::RecordingInfo& info = m->info();
    std::vector<std::string> names;
    for (const core::ChannelInfo& ch : info.channels) names.push_back(ch.name);
    EXPECT_EQ(names, (std::vector<std::string>{"eeg:ch001", "eeg:ch002", "ch003", "ecg:ch001", "ecg:ch002"}));
    EXPECT_EQ(info.start, kT0);
    EXPECT_EQ(info.end, std::max(re->info().end, rc->info().end));
    const std::pair<core::Recording*, std::size_t> sources[] = {
        {re.get(), 0}, {re.get(), 1}, {re.get(), 2}, {rc.get(), 0}, {rc.get(), 1}};
    for (std::size_t c = 0; c < 5; ++c) {
        const core::ChannelInfo& want = sources[c].first->info().channels[sources[c].second];
        const core::ChannelInfo& got = info.channels[c];
        EXPECT_EQ(got.fs, want.fs);
        EXPECT_EQ(got.start, want.start);
        EXPECT_EQ(got.gaps, want.gaps);
        EXPECT_EQ(got.conversionFactor, want.conversionFactor);
        EXPECT_TRUE(readChannel(*m, c, 0, got.gridLength) ==
                    readChannel(*sources[c].first, sources[c].second, 0, want.gridLength))
            << got.name;
    }
    // The clash is said; channel annotations follow their channel's new name.
    EXPECT_EQ(info.warnings.front(), "channel \"ch001\" of " + eeg.string() +
                                         " is written as \"eeg:ch001\" (another input has a channel of that name)");
    for (const core::Annotation& a : info.annotations) {
        if (!a.channel) continue;
        EXPECT_NE(info.channelIndex(*a.channel), -1) << *a.channel;
    }
    EXPECT_EQ(info.annotations.size(), re->info().annotations.size() + rc->info().annotations.size());

    // Written to EDF+ (whole samples per record at 256 and 200 Hz) and read back: same rates and names.
    const fs::path out = m_dir.path() / "stacked.edf";
    auto written = exportEdf(*m, {{}, {info.start, info.end}, false, GapPolicy::Discontinuous, 0.0}, out.string(), {});
    ASSERT_TRUE(written.ok()) << written.error().describe();
    auto back = open(out);
    ASSERT_TRUE(back);
    ASSERT_EQ(back->info().channels.size(), 5u);
    EXPECT_EQ(back->info().channels[3].name, "ecg:ch001");
    EXPECT_EQ(back->info().channels[3].fs, 200.0);
    EXPECT_EQ(back->info().channels[0].fs, 256.0);
}

TEST_F(MergeModes, StackedTimelineHasOnePartPerChannel)
{
    const fs::path eeg = synth("x.mefd", 1, 0, 256.0, 1), ecg = synth("y.mefd", 2, 30, 200.0, 1);
    auto plan = planMerge({eeg.string(), ecg.string()}, {}, {}, {MergeMode::Stack, OverlapPolicy::Error});
    ASSERT_TRUE(plan.ok());
    ASSERT_EQ(plan->channels.size(), 2u);
    EXPECT_EQ(plan->channels[1].name, "y:ch001");
    ASSERT_EQ(plan->channels[1].parts.size(), 1u);
    EXPECT_EQ(plan->channels[1].parts[0].input, 1u);
    EXPECT_EQ(plan->channels[1].parts[0].sourceChannel, "ch001");
    EXPECT_EQ(plan->channels[1].parts[0].span.start, kT0 + 30 * kSecond);
}

} // namespace
} // namespace lv::convert
