// CSV delimiter and decimal comma: every byte of the table and the annotations file for ';' and tab, the
// decimal comma refused with a comma delimiter, text cells quoted for the delimiter in use.
#include "convert/CsvCell.h"
#include "convert/CsvExport.h"
#include "convert/CsvSideFiles.h"

#include "formats/mef3/MefRecording.h"
#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The first two rows of multi_channel.mefd (counts 1397, -2210 and 3812, 20810 at 0.001 uV).
std::string exportTwoRows(char delimiter, bool decimalComma, TimeColumn time, core::Status* status = nullptr)
{
    auto r = formats::mef3::openMef3((test::testdata() / "mef3/legacy/multi_channel.mefd").string(), {});
    EXPECT_TRUE(r.ok());
    test::TempDir dir;
    CsvOptions o;
    o.range = {(*r)->info().start, (*r)->info().start + 7000};
    o.delimiter = delimiter;
    o.decimalComma = decimalComma;
    o.time = time;
    const core::Status s = exportCsv(**r, o, (dir.path() / "o.csv").string(), {});
    if (status) *status = s;
    return s.ok() ? contents(dir.path() / "o.csv") : std::string();
}

TEST(CsvStyle, SemicolonAndDecimalCommaByteForByte)
{
    EXPECT_EQ(exportTwoRows(';', true, TimeColumn::Seconds),
              "# units: ch1=uV ch2=uV\ntime;ch1;ch2\n0;1,397;-2,21\n0,003906;3,812;20,81\n");
}

TEST(CsvStyle, TabWithDecimalPoint)
{
    EXPECT_EQ(exportTwoRows('\t', false, TimeColumn::Seconds),
              "# units: ch1=uV ch2=uV\ntime\tch1\tch2\n0\t1.397\t-2.21\n0.003906\t3.812\t20.81\n");
}

TEST(CsvStyle, CommaIsUnchanged)
{
    EXPECT_EQ(exportTwoRows(',', false, TimeColumn::Seconds),
              "# units: ch1=uV ch2=uV\ntime,ch1,ch2\n0,1.397,-2.21\n0.003906,3.812,20.81\n");
}

TEST(CsvStyle, IsoTimesKeepTheirPoint)
{
    const std::string text = exportTwoRows(';', true, TimeColumn::Iso);
    EXPECT_NE(text.find("00.003906+00:00;3,812;20,81\n"), std::string::npos) << text; // the ISO fraction keeps '.'
    EXPECT_NE(text.find(";1,397;-2,21\n"), std::string::npos) << text;
}

TEST(CsvStyle, DecimalCommaNeedsAnotherDelimiter)
{
    core::Status s;
    EXPECT_EQ(exportTwoRows(',', true, TimeColumn::Seconds, &s), "");
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_EQ(s.error().message,
              "a decimal comma needs a semicolon or tab delimiter (a comma would split every number)");
    EXPECT_FALSE(checkCsvStyle('|', false).ok());
    EXPECT_TRUE(checkCsvStyle('\t', true).ok());
}

TEST(CsvStyle, TextCellsQuotedForTheirDelimiter)
{
    EXPECT_EQ(csvTextCell("a;b", ';'), "\"a;b\"");
    EXPECT_EQ(csvTextCell("a,b", ';'), "a,b");
    EXPECT_EQ(csvTextCell("a\tb", '\t'), "\"a\tb\"");
    EXPECT_EQ(csvTextCell("=SUM(A1;B1)", ';'), "\"'=SUM(A1;B1)\""); // formula-safe, then quoted
}

TEST(CsvStyle, AnnotationsFileByteForByte)
{
    core::Annotation a;
    a.time = 1'500'000;
    a.durationUs = 250'000;
    a.type = "Note";
    a.text = "eyes; closed";
    a.channel = "Fp1";
    EXPECT_EQ(annotationsCsv({a}, 0, false, ';', true),
              "onset_iso;onset_seconds;duration_seconds;type;text;channel\n;1,5;0,25;Note;\"eyes; closed\";Fp1\n");
    EXPECT_EQ(annotationsCsv({a}, 0, false),
              "onset_iso,onset_seconds,duration_seconds,type,text,channel\n,1.5,0.25,Note,eyes; closed,Fp1\n");
}

} // namespace
} // namespace lv::convert
