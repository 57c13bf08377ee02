// Plausibility of a recording's dates: no recording starts after the moment it is opened.
#include "core/RecordingInfo.h"
#include "core/TimeFormat.h"

#include <gtest/gtest.h>

namespace lv::core {
namespace {

constexpr Uutc kDay = 86'400'000'000;
constexpr Uutc kNow = 1'764'547'200'000'000; // 2025-12-01T00:00:00Z

RecordingInfo startingAt(Uutc start)
{
    RecordingInfo info;
    info.start = start;
    info.channels.push_back(ChannelInfo{});
    return info;
}

TEST(FutureStart, AStartAfterThePresentIsSaidNamingTheField)
{
    const Uutc start = kNow + 2 * kDay;
    const auto warning = futureStartWarning(startingAt(start), kNow, "the start date (byte 168)");
    ASSERT_TRUE(warning.has_value());
    EXPECT_EQ(*warning, "the recording starts at " + formatIso(start) + ", after the present (" + formatIso(kNow) +
                            "): the start date (byte 168) is damaged or wrong");
}

TEST(FutureStart, ADayOfClockSlackRelativeTimesAndEmptyRecordingsAreNotSaid)
{
    EXPECT_FALSE(futureStartWarning(startingAt(kNow + kDay), kNow, "x").has_value());
    EXPECT_FALSE(futureStartWarning(startingAt(kNow - 1), kNow, "x").has_value());
    RecordingInfo relative = startingAt(kNow + 2 * kDay);
    relative.timesKnown = false;
    EXPECT_FALSE(futureStartWarning(relative, kNow, "x").has_value());
    RecordingInfo empty = startingAt(kNow + 2 * kDay);
    empty.channels.clear();
    EXPECT_FALSE(futureStartWarning(empty, kNow, "x").has_value());
}

TEST(FutureStart, TheClockIsTheSystemsInMicroseconds)
{
    EXPECT_GT(nowUutc(), kNow); // written after 2025-12-01
    EXPECT_LT(nowUutc(), kNow + 100 * 365 * kDay);
}

} // namespace
} // namespace lv::core
