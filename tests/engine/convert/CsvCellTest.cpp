// CSV text cells: RFC 4180 quoting and the formula prefix, on exact strings.
#include "convert/CsvCell.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

TEST(CsvCell, PlainTextIsUnchanged)
{
    EXPECT_EQ(csvTextCell("Fp1"), "Fp1");
    EXPECT_EQ(csvTextCell("EEG Fp1-Ref"), "EEG Fp1-Ref");
    EXPECT_EQ(csvTextCell("\xc2\xb5V"), "\xc2\xb5V");
    EXPECT_EQ(csvTextCell(""), "");
}

TEST(CsvCell, CommaQuoteAndLineBreaksAreQuotedWithInnerQuotesDoubled)
{
    EXPECT_EQ(csvTextCell("a,b"), "\"a,b\"");
    EXPECT_EQ(csvTextCell("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvTextCell("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvTextCell("cr\rhere"), "\"cr\rhere\"");
    EXPECT_EQ(csvTextCell("\""), "\"\"\"\"");
}

TEST(CsvCell, FormulaStartsGetAnApostrophe)
{
    EXPECT_EQ(csvTextCell("=1+2"), "'=1+2");
    EXPECT_EQ(csvTextCell("@SUM(A1)"), "'@SUM(A1)");
    EXPECT_EQ(csvTextCell("+1"), "'+1");
    EXPECT_EQ(csvTextCell("-2+3"), "'-2+3");
    EXPECT_EQ(csvTextCell("\tx"), "'\tx");
    EXPECT_EQ(csvTextCell("\rx"), "\"'\rx\"");
    EXPECT_EQ(csvTextCell("=HYPERLINK(\"http://x\",\"y\")"), "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"");
    EXPECT_EQ(csvTextCell("a=1"), "a=1"); // only the first character counts
}

} // namespace
} // namespace lv::convert
