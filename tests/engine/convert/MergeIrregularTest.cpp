// Concatenating irregular channels: the parts' samples one after another at their own times, overlaps refused or
// resolved by sample times, scales brought onto one, grid and irregular parts of one name refused.
#include "convert/MergedRecording.h"

#include "support/IrregularRecording.h"
#include "support/MemoryRecording.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

constexpr std::int64_t kSecond = 1'000'000'000;
constexpr std::int64_t kBase = 1'600'000'000 * kSecond;

// A CAN signal of `n` samples, `step` ns apart from `first` (ns), counts from `value` up.
std::unique_ptr<test::IrregularRecording> can(std::int64_t first, std::int64_t step, int n, std::int32_t value,
                                              double factor = 0.5, const std::string& path = "a.mf4")
{
    std::vector<std::int64_t> times;
    std::vector<std::int32_t> counts;
    for (int i = 0; i < n; ++i) {
        times.push_back(first + i * step + (i % 3) * 1000); // jitter: no raster
        counts.push_back(value + i);
    }
    auto r = std::make_unique<test::IrregularRecording>();
    r->addChannel("speed", std::move(times), std::move(counts), 4, factor);
    r->description.path = path;
    return r;
}

core::TimedSamples all(core::Recording& r)
{
    auto got = core::readTimed(r, 0, {r.info().start, r.info().end + 1}, {});
    EXPECT_TRUE(got.ok()) << got.error().describe();
    return got.ok() ? std::move(*got) : core::TimedSamples{};
}

std::vector<std::unique_ptr<core::Recording>> parts(std::unique_ptr<core::Recording> a,
                                                    std::unique_ptr<core::Recording> b)
{
    std::vector<std::unique_ptr<core::Recording>> v;
    v.push_back(std::move(a));
    v.push_back(std::move(b));
    return v;
}

} // namespace

TEST(MergeIrregular, PartsFollowEachOtherAtTheirOwnTimes)
{
    auto a = can(kBase, 10'000'000, 20, 0);
    auto b = can(kBase + 60 * kSecond, 10'000'000, 30, 100);
    const core::TimedSamples wantA = all(*a), wantB = all(*b);
    auto merged = MergedRecording::create(parts(std::move(b), std::move(a))); // any order
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    const core::ChannelInfo& ch = (*merged)->info().channels[0];
    EXPECT_TRUE(ch.irregular);
    EXPECT_EQ(ch.sampleCount, 50);
    ASSERT_EQ(ch.gaps.size(), 1u); // the minute between the parts
    EXPECT_EQ(ch.gaps[0].end, core::nsToUs(kBase + 60 * kSecond));
    const core::TimedSamples got = all(**merged);
    std::vector<std::int64_t> times = wantA.timesNs;
    times.insert(times.end(), wantB.timesNs.begin(), wantB.timesNs.end());
    std::vector<std::int32_t> counts = wantA.raw;
    counts.insert(counts.end(), wantB.raw.begin(), wantB.raw.end());
    EXPECT_EQ(got.timesNs, times);
    EXPECT_EQ(got.raw, counts);
    auto span = (*merged)->samplesIn(0, {core::nsToUs(kBase + 100'000'000), core::nsToUs(kBase + 60'050'000'000)});
    ASSERT_TRUE(span.ok());
    EXPECT_EQ(span->first, 10); // from the 11th sample of the first part
    EXPECT_EQ(span->count, 10 + 5);
}

TEST(MergeIrregular, OverlapsAreRefusedOrResolvedBySampleTimes)
{
    const auto make = [] {
        return parts(can(kBase, 10'000'000, 20, 0), can(kBase + 100'000'000, 10'000'000, 20, 100));
    };
    auto refused = MergedRecording::create(make());
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("overlap in channel \"speed\""), std::string::npos)
        << refused.error().message;
    auto first = MergedRecording::create(make(), OverlapPolicy::First);
    ASSERT_TRUE(first.ok()) << first.error().describe();
    const core::TimedSamples f = all(**first);
    ASSERT_EQ(f.raw.size(), 20u + 10u); // the later part's first 10 samples lie before the earlier's end
    EXPECT_EQ(f.raw[19], 19);
    EXPECT_EQ(f.raw[20], 110);
    EXPECT_TRUE(std::is_sorted(f.timesNs.begin(), f.timesNs.end()));
    auto last = MergedRecording::create(make(), OverlapPolicy::Last);
    ASSERT_TRUE(last.ok()) << last.error().describe();
    const core::TimedSamples l = all(**last);
    ASSERT_EQ(l.raw.size(), 10u + 20u);
    EXPECT_EQ(l.raw[9], 9);
    EXPECT_EQ(l.raw[10], 100);
}

TEST(MergeIrregular, StepsOfPartsAreBroughtOntoOneScale)
{
    auto merged = MergedRecording::create(
        parts(can(kBase, 10'000'000, 5, 1, 0.25), can(kBase + 60 * kSecond, 10'000'000, 5, 1, 0.5)));
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    const core::ChannelInfo& ch = (*merged)->info().channels[0];
    EXPECT_EQ(ch.conversionFactor, 0.25);
    const core::TimedSamples got = all(**merged);
    EXPECT_EQ(got.raw, (std::vector<std::int32_t>{1, 2, 3, 4, 5, 2, 4, 6, 8, 10})); // 0.5 steps: counts doubled
}

TEST(MergeIrregular, AChannelIrregularInOnePartAndOnAGridInAnotherIsRefused)
{
    auto grid = std::make_unique<test::MemoryRecording>();
    grid->addChannel("speed", 100.0, core::nsToUs(kBase + 60 * kSecond), 100);
    grid->description.path = "b.edf";
    auto merged = MergedRecording::create(parts(can(kBase, 10'000'000, 5, 1), std::move(grid)));
    ASSERT_FALSE(merged.ok());
    EXPECT_EQ(merged.error().message,
              "channel \"speed\" is sampled at irregular times in a.mf4 but on a grid in b.edf; "
              "merged parts need one kind per channel");
}

} // namespace lv::convert

namespace lv::convert {

TEST(MergeIrregular, ChannelsSharingTheirTimesInEveryPartShareThemMerged)
{
    const auto twoChannels = [](std::int64_t first, const std::string& path) {
        auto r = can(first, 10'000'000, 8, 0, 0.5, path);
        r->addChannel("rpm", r->channels[0].timesNs, r->channels[0].counts, 4);
        r->description.channels[1].timeBase = r->description.channels[0].timeBase; // one channel group
        return r;
    };
    auto merged = MergedRecording::create(parts(twoChannels(kBase, "a.mf4"), twoChannels(kBase + kSecond, "b.mf4")));
    ASSERT_TRUE(merged.ok()) << merged.error().describe();
    const auto& channels = (*merged)->info().channels;
    ASSERT_EQ(channels.size(), 2u);
    EXPECT_EQ(channels[0].timeBase, channels[1].timeBase);
    EXPECT_GE(channels[0].timeBase, 0);
}

} // namespace lv::convert
