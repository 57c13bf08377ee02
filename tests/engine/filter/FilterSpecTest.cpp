// Filter specs from the CLI's words: parsed, written back (round trip), labelled, and refused in words.
#include "filter/FilterSpec.h"

#include <gtest/gtest.h>

using namespace lv;

TEST(FilterSpec, ParsesWritesBackAndLabels)
{
    const auto s = filter::parseFilterSpec("hp=0.5,lp=70,notch=50");
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->highPassHz, 0.5);
    EXPECT_EQ(s->lowPassHz, 70);
    EXPECT_EQ(s->notchHz, 50);
    EXPECT_EQ(filter::filterLabel(*s), "HP 0.5 LP 70 N50");
    EXPECT_EQ(filter::filterSpecText(*s), "hp=0.5,lp=70,notch=50");
    for (const std::string text : {"bp=1-40,order=4", "bs=45-55,notch=60,harmonics=3,q=35,causal", "lp=35"}) {
        const auto parsed = filter::parseFilterSpec(text);
        ASSERT_TRUE(parsed.ok()) << text;
        EXPECT_EQ(filter::filterSpecText(*parsed), text);
        EXPECT_EQ(*filter::parseFilterSpec(filter::filterSpecText(*parsed)), *parsed);
    }
    EXPECT_EQ(filter::filterLabel(*filter::parseFilterSpec("bp=1-40,causal")), "BP 1-40, causal");
    EXPECT_FALSE(filter::parseFilterSpec("none")->any());
    EXPECT_EQ(filter::filterSpecText({}), "none");
}

TEST(FilterSpec, HarmonicsBelowHalfTheRateAreNotched)
{
    const auto s = filter::parseFilterSpec("notch=50,harmonics=3");
    EXPECT_EQ(filter::designFilter(*s, 256)->size(), 2u); // 50 and 100 Hz; 150 Hz is above 128 Hz
    EXPECT_EQ(filter::designFilter(*s, 1000)->size(), 3u);
}

TEST(FilterSpec, RefusesInWords)
{
    EXPECT_EQ(filter::parseFilterSpec("hp=abc").error().describe(),
              "filter \"hp=abc\": expected hp, lp, bp, bs, notch, harmonics, order, q or causal with a number");
    EXPECT_EQ(filter::parseFilterSpec("xp=3").error().describe(),
              "filter \"xp=3\": expected hp, lp, bp, bs, notch, harmonics, order, q or causal");
    EXPECT_EQ(filter::parseFilterSpec("bp=40").error().describe(),
              "filter \"bp=40\": a band is two frequencies in Hz, as bp=1-40");
    EXPECT_EQ(filter::parseFilterSpec("order=12").error().describe(),
              "filter \"order=12\": order is a whole number from 1 to 8");
    EXPECT_EQ(filter::parseFilterSpec("hp=-1").error().describe(),
              "filter \"hp=-1\": frequencies and factors are not negative");
    EXPECT_EQ(filter::designFilter(*filter::parseFilterSpec("lp=200"), 256).error().describe(),
              "a filter edge at 200 Hz must lie between 0 and half the sample rate (128 Hz)");
}
