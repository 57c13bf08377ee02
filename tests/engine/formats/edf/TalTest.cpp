// TAL parsing: onsets, durations, several texts, UTF-8, malformed lists skipped; formatting round trips.
#include "formats/edf/Tal.h"

#include <gtest/gtest.h>

namespace lv::formats::edf {
namespace {

// A literal's bytes, embedded NULs included (the closing NUL left out).
template <std::size_t N>
std::vector<std::uint8_t> lit(const char (&s)[N])
{
    return {s, s + N - 1};
}
std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

TEST(EdfTal, TimeKeepingAndAnnotationsWithDurations)
{
    const auto b = lit("+0.25\x14\x14\0+1.5\x15"
                       "0.5\x14Seizure onset \xc3\xa9\x14Second\x14\0+4.25\x14Marker\x14\0\0\0");
    const auto tals = parseTals(b);
    ASSERT_EQ(tals.size(), 3u);
    EXPECT_EQ(tals[0].onsetUs, 250000);
    EXPECT_FALSE(tals[0].durationUs);
    ASSERT_EQ(tals[0].texts.size(), 1u);
    EXPECT_EQ(tals[0].texts[0], "");
    EXPECT_EQ(tals[1].onsetUs, 1500000);
    EXPECT_EQ(tals[1].durationUs, 500000);
    EXPECT_EQ(tals[1].texts, (std::vector<std::string>{"Seizure onset \xc3\xa9", "Second"}));
    EXPECT_EQ(tals[2].onsetUs, 4250000);
    EXPECT_EQ(tals[2].texts, std::vector<std::string>{"Marker"});
}

TEST(EdfTal, NegativeAndSubMicrosecondOnsets)
{
    const auto tals = parseTals(lit("-1.0000004\x14x\x14\0+12.0000015\x14y\x14\0"));
    ASSERT_EQ(tals.size(), 2u);
    EXPECT_EQ(tals[0].onsetUs, -1000000);
    EXPECT_EQ(tals[1].onsetUs, 12000002);
}

TEST(EdfTal, MalformedListsAreSkippedWithAProblem)
{
    std::vector<std::string> problems;
    const auto tals =
        parseTals(lit("12\x14no sign\x14\0+3\x14ok\x14\0+4\x15\x14no duration\x14\0+5\x14unterminated"), &problems);
    ASSERT_EQ(tals.size(), 1u);
    EXPECT_EQ(tals[0].texts[0], "ok");
    EXPECT_EQ(problems.size(), 3u);
}

TEST(EdfTal, Latin1TextBecomesUtf8)
{
    const auto tals = parseTals(lit("+1\x14"
                                    "caf\xe9\x14\0"));
    ASSERT_EQ(tals.size(), 1u);
    EXPECT_EQ(tals[0].texts[0], "caf\xc3\xa9");
}

TEST(EdfTal, FormatRoundTrips)
{
    EXPECT_EQ(formatOnset(0), "+0");
    EXPECT_EQ(formatOnset(250000), "+0.25");
    EXPECT_EQ(formatOnset(-1500000), "-1.5");
    const std::string tal = formatTal(3600000001, 500000, {"a", "b"});
    const auto expected = lit("+3600.000001\x15"
                              "0.5\x14"
                              "a\x14"
                              "b\x14\0");
    EXPECT_EQ(bytes(tal), expected);
    const auto back = parseTals(bytes(tal));
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].onsetUs, 3600000001);
    EXPECT_EQ(back[0].durationUs, 500000);
    EXPECT_EQ(back[0].texts, (std::vector<std::string>{"a", "b"}));
}

TEST(EdfTal, DelimitersInsideATextBecomeSpaces)
{
    const std::string tal = formatTal(0, std::nullopt,
                                      {std::string("a\x14"
                                                   "b\x15"
                                                   "c\0d",
                                                   7)});
    EXPECT_EQ(bytes(tal), lit("+0\x14"
                              "a b c d\x14\0"));
    const auto back = parseTals(bytes(tal));
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].texts, (std::vector<std::string>{"a b c d"}));
}

} // namespace
} // namespace lv::formats::edf
