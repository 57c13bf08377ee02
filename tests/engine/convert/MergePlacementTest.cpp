// Placement of concatenated parts: fragments under each overlap policy (a part inside another, three parts,
// touching parts), gaps between fragments and the parts' own gaps clipped to what is kept.
#include "convert/MergePlacement.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

constexpr core::Uutc kT0 = 1'700'000'000'000'000;
constexpr core::Uutc kSecond = 1'000'000;

// A 100 Hz channel from second `from` to second `to` (exclusive) after kT0, with optional gaps (seconds).
core::ChannelInfo channel(double from, double to, std::vector<std::pair<double, double>> gaps = {})
{
    core::ChannelInfo ch;
    ch.fs = 100;
    ch.start = kT0 + static_cast<core::Uutc>(from * kSecond);
    ch.end = kT0 + static_cast<core::Uutc>(to * kSecond);
    ch.gridLength = static_cast<std::int64_t>((to - from) * 100);
    ch.sampleCount = ch.gridLength;
    for (auto [a, b] : gaps) {
        ch.gaps.push_back({kT0 + static_cast<core::Uutc>(a * kSecond), kT0 + static_cast<core::Uutc>(b * kSecond)});
        ch.sampleCount -= static_cast<std::int64_t>((b - a) * 100);
    }
    ch.segments.push_back({ch.start, ch.end});
    return ch;
}

// "part:[from,to)@offset" per fragment, in merged-grid order.
std::vector<std::string> fragments(const Placement& p)
{
    std::vector<std::string> out;
    for (const Fragment& f : p.fragments)
        out.push_back(std::to_string(f.part) + ":[" + std::to_string(f.from) + "," + std::to_string(f.to) + ")@" +
                      std::to_string(f.offset));
    return out;
}

core::TimeRange seconds(double a, double b)
{
    return {kT0 + static_cast<core::Uutc>(a * kSecond), kT0 + static_cast<core::Uutc>(b * kSecond)};
}

TEST(MergePlacement, ApartPartsAreWholeWithTheTimeBetweenThemAGap)
{
    const core::ChannelInfo a = channel(0, 10, {{2, 3}}), b = channel(20, 30);
    for (OverlapPolicy policy : {OverlapPolicy::Error, OverlapPolicy::First, OverlapPolicy::Last}) {
        const Placement p = placeParts({{1, 0, &b}, {0, 0, &a}}, policy); // given out of order
        EXPECT_EQ(fragments(p), (std::vector<std::string>{"0:[0,1000)@0", "1:[0,1000)@2000"}));
        EXPECT_TRUE(p.overlaps.empty());
        EXPECT_EQ(p.channel.gaps, (std::vector<core::TimeRange>{seconds(2, 3), seconds(10, 20)}));
        EXPECT_EQ(p.channel.gridLength, 3000);
        EXPECT_EQ(p.channel.sampleCount, 1900);
        EXPECT_EQ(p.channel.start, kT0);
        EXPECT_EQ(p.channel.end, kT0 + 30 * kSecond);
    }
}

TEST(MergePlacement, OverlappingPartsKeepTheEarlierOrTheLaterSamples)
{
    const core::ChannelInfo a = channel(0, 10, {{8, 9}}), b = channel(6, 16, {{7, 8}, {12, 13}});
    const Placement refused = placeParts({{0, 0, &a}, {1, 0, &b}}, OverlapPolicy::Error);
    ASSERT_EQ(refused.overlaps.size(), 1u);
    EXPECT_EQ(refused.overlaps[0].range, seconds(6, 10));
    EXPECT_FALSE(refused.overlaps[0].kept);
    EXPECT_EQ(refused.overlaps[0].droppedSamples, 400);
    EXPECT_EQ(fragments(refused), (std::vector<std::string>{"0:[0,1000)@0", "1:[0,1000)@600"}));

    const Placement first = placeParts({{0, 0, &a}, {1, 0, &b}}, OverlapPolicy::First);
    EXPECT_EQ(fragments(first), (std::vector<std::string>{"0:[0,1000)@0", "1:[400,1000)@600"}));
    EXPECT_EQ(first.overlaps[0].kept, 0u);
    // a's gap 8-9 stays (a owns 6-10); b's 7-8 is not written; b's 12-13 is.
    EXPECT_EQ(first.channel.gaps, (std::vector<core::TimeRange>{seconds(8, 9), seconds(12, 13)}));
    EXPECT_EQ(first.channel.sampleCount, 900 + 500);
    EXPECT_EQ(first.channel.gridLength, 1600);

    const Placement last = placeParts({{0, 0, &a}, {1, 0, &b}}, OverlapPolicy::Last);
    EXPECT_EQ(fragments(last), (std::vector<std::string>{"0:[0,600)@0", "1:[0,1000)@600"}));
    EXPECT_EQ(last.overlaps[0].kept, 1u);
    EXPECT_EQ(last.channel.gaps, (std::vector<core::TimeRange>{seconds(7, 8), seconds(12, 13)}));
    EXPECT_EQ(last.channel.sampleCount, 600 + 800);
}

TEST(MergePlacement, APartInsideAnotherIsDroppedOrSplitsIt)
{
    const core::ChannelInfo outer = channel(0, 30), inner = channel(10, 20);
    const Placement first = placeParts({{0, 0, &outer}, {1, 0, &inner}}, OverlapPolicy::First);
    EXPECT_EQ(fragments(first), (std::vector<std::string>{"0:[0,3000)@0"}));
    EXPECT_EQ(first.overlaps[0].droppedSamples, 1000);
    const Placement last = placeParts({{0, 0, &outer}, {1, 0, &inner}}, OverlapPolicy::Last);
    EXPECT_EQ(fragments(last), (std::vector<std::string>{"0:[0,1000)@0", "1:[0,1000)@1000", "0:[2000,3000)@0"}));
    EXPECT_EQ(last.channel.gridLength, 3000);
    EXPECT_EQ(last.channel.sampleCount, 3000);
    EXPECT_TRUE(last.channel.gaps.empty());
}

TEST(MergePlacement, ThreePartsEachOverlappingTheNext)
{
    const core::ChannelInfo a = channel(0, 10), b = channel(5, 15), c = channel(12, 20);
    const Placement last = placeParts({{0, 0, &a}, {1, 0, &b}, {2, 0, &c}}, OverlapPolicy::Last);
    EXPECT_EQ(fragments(last), (std::vector<std::string>{"0:[0,500)@0", "1:[0,700)@500", "2:[0,800)@1200"}));
    ASSERT_EQ(last.overlaps.size(), 2u);
    EXPECT_EQ(last.overlaps[0].range, seconds(5, 10));
    EXPECT_EQ(last.overlaps[1].range, seconds(12, 15));
    const Placement first = placeParts({{0, 0, &a}, {1, 0, &b}, {2, 0, &c}}, OverlapPolicy::First);
    EXPECT_EQ(fragments(first), (std::vector<std::string>{"0:[0,1000)@0", "1:[500,1000)@500", "2:[300,800)@1200"}));
}

TEST(MergePlacement, TouchingPartsDoNotOverlap)
{
    const core::ChannelInfo a = channel(0, 10), b = channel(10, 20);
    const Placement p = placeParts({{0, 0, &a}, {1, 0, &b}}, OverlapPolicy::Error);
    EXPECT_TRUE(p.overlaps.empty());
    EXPECT_TRUE(p.channel.gaps.empty());
    EXPECT_EQ(p.channel.sampleCount, 2000);
}

TEST(MergePlacement, AStartInsideThePredecessorsLastSamplePeriodIsAnOverlapOnTheGrid)
{
    core::ChannelInfo a = channel(0, 10), b = channel(10, 20);
    b.start -= 1; // 1 us before a's end, which is its last sample's time + 10 ms
    const Placement p = placeParts({{0, 0, &a}, {1, 0, &b}}, OverlapPolicy::Error);
    ASSERT_EQ(p.overlaps.size(), 1u);
    EXPECT_EQ(p.overlaps[0].range, (core::TimeRange{kT0 + 10 * kSecond - 1, kT0 + 10 * kSecond}));
}

} // namespace
} // namespace lv::convert
