// ISO 8601 and seconds formatting; time arguments in uUTC, ISO and +SECONDS forms.
#include "core/TimeFormat.h"

#include <gtest/gtest.h>

namespace lv::core {
namespace {

TEST(TimeFormat, IsoHasMicrosecondsAndOffset)
{
    EXPECT_EQ(formatIso(1704103200000000), "2024-01-01T10:00:00.000000+00:00");
    EXPECT_EQ(formatIso(1577836807812500), "2020-01-01T00:00:07.812500+00:00");
    EXPECT_EQ(formatIso(-1), "1969-12-31T23:59:59.999999+00:00");
}

TEST(TimeFormat, SecondsAreExactDecimals)
{
    EXPECT_EQ(formatSeconds(0), "0");
    EXPECT_EQ(formatSeconds(7812500), "7.8125");
    EXPECT_EQ(formatSeconds(3906), "0.003906");
    EXPECT_EQ(formatSeconds(-1), "-0.000001");
}

TEST(TimeFormat, ArgumentsInEveryForm)
{
    const Uutc start = 1704103200000000;
    EXPECT_EQ(*parseTimeArgument("1704103200000123", start), 1704103200000123);
    EXPECT_EQ(*parseTimeArgument("+1.5", start), start + 1500000);
    EXPECT_EQ(*parseTimeArgument("2024-01-01T10:00:00Z", start), start);
    EXPECT_EQ(*parseTimeArgument("2024-01-01T11:00:00.25+01:00", start), start + 250000);
    EXPECT_EQ(*parseTimeArgument("2024-01-01T10:00:00.000001+00:00", start), start + 1);
    EXPECT_EQ(*parseTimeArgument(formatIso(1577836807812500), start), 1577836807812500);
}

TEST(TimeFormat, BadArgumentsExplainTheForms)
{
    auto r = parseTimeArgument("yesterday", 0);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(r.error().message, "cannot read time \"yesterday\": give integer uUTC, ISO 8601 (2024-01-01T10:00:00Z) "
                                 "or +SECONDS from the start");
    EXPECT_FALSE(parseTimeArgument("2024-13-01T00:00:00Z", 0).ok());
    EXPECT_FALSE(parseTimeArgument("+abc", 0).ok());
}

} // namespace
} // namespace lv::core
