// EDF+/BDF+ limits a de-identified conversion meets: an annotation without text is written as its type (or
// "Annotation"), never as an empty TAL; a start date outside 1985-2084 is refused naming the file, not written wrong.
#include "convert/EdfExport.h"
#include "formats/edf/EdfRecording.h"
#include "support/MemoryRecording.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

constexpr core::Uutc kStart = 1'704'067'200'000'000; // 2024-01-01T00:00:00Z
constexpr core::Uutc k1985 = 473'385'600'000'000;    // 1985-01-01T00:00:00Z
constexpr core::Uutc k2085 = 3'629'145'600'000'000;  // 2085-01-01T00:00:00Z

EdfExportOptions wholeOf(const core::Recording& r, GapPolicy gaps = GapPolicy::Discontinuous)
{
    EdfExportOptions o;
    o.range = {r.info().start, r.info().end};
    o.gaps = gaps;
    return o;
}

TEST(EdfExportLimits, AnnotationsWithoutTextAreWrittenAsTheirType)
{
    test::MemoryRecording r;
    r.addChannel("a", 256.0, kStart, 256 * 10);
    r.description.annotations = {{kStart + 1'000'000, 0, "EDFA", "", std::nullopt},
                                 {kStart + 2'000'000, 0, "Note", "", std::nullopt},
                                 {kStart + 3'000'000, 500'000, "Seiz", "", std::string("a")},
                                 {kStart + 4'000'000, 0, "", " ", std::nullopt},
                                 {kStart + 5'000'000, 0, "Seiz", "onset", std::nullopt}};
    test::TempDir dir;
    const fs::path out = dir.path() / "out.edf";
    auto written = exportEdf(r, wholeOf(r), out.string(), {});
    ASSERT_TRUE(written.ok()) << written.error().describe();
    auto back = formats::edf::openEdf(out.string());
    ASSERT_TRUE(back.ok()) << back.error().describe();
    std::vector<std::string> texts;
    for (const core::Annotation& a : (*back)->info().annotations) texts.push_back(a.text);
    EXPECT_EQ(texts, (std::vector<std::string>{"Annotation", "Note", "Seiz", "Annotation", "Seiz: onset"}));
}

TEST(EdfExportLimits, StartDatesOutside1985To2084AreRefusedNamingTheFile)
{
    const std::vector<std::pair<core::Uutc, std::string>> refused = {
        {0, "1970-01-01T00:00:00.000000+00:00"},
        {k1985 - 1'000'000, "1984-12-31T23:59:59.000000+00:00"},
        {k2085, "2085-01-01T00:00:00.000000+00:00"},
    };
    for (const auto& [start, iso] : refused) {
        for (const char* name : {"out.edf", "out.bdf"}) {
            test::MemoryRecording r;
            r.addChannel("a", 256.0, start, 256 * 4);
            test::TempDir dir;
            const fs::path out = dir.path() / name;
            EdfExportOptions o = wholeOf(r);
            o.bdf = out.extension() == ".bdf";
            auto written = exportEdf(r, o, out.string(), {});
            ASSERT_FALSE(written.ok()) << iso;
            EXPECT_EQ(written.error().code, core::ErrorCode::InvalidArgument);
            EXPECT_EQ(written.error().path, out.string());
            EXPECT_EQ(written.error().message,
                      "EDF+ and BDF+ hold start dates from 1985-01-01 to 2084-12-31 only, and this file would start "
                      "at " +
                          iso + " (write .mefd or .csv, or move the dates with --shift-dates)");
            EXPECT_TRUE(fs::is_empty(dir.path()));
        }
    }
    for (const core::Uutc start : {k1985, k2085 - 10'000'000}) {
        test::MemoryRecording r;
        r.addChannel("a", 256.0, start, 256 * 4);
        test::TempDir dir;
        auto written = exportEdf(r, wholeOf(r), (dir.path() / "ok.edf").string(), {});
        ASSERT_TRUE(written.ok()) << written.error().describe();
        auto back = formats::edf::openEdf((dir.path() / "ok.edf").string());
        ASSERT_TRUE(back.ok());
        EXPECT_EQ((*back)->info().start, start);
    }
}

TEST(EdfExportLimits, RelativeTimesAreWrittenFrom1985AndASplitPartPast2084IsRefused)
{
    test::MemoryRecording relative;
    relative.addChannel("a", 256.0, 0, 256 * 4);
    relative.description.timesKnown = false;
    test::TempDir dir;
    ASSERT_TRUE(exportEdf(relative, wholeOf(relative), (dir.path() / "rel.edf").string(), {}).ok());

    test::MemoryRecording late;
    late.addChannel("a", 1.0, k2085 - 10'000'000, 30, 1, 8, 18); // 2084-12-31T23:59:50, a gap over midnight
    const fs::path out = dir.path() / "late.edf";
    auto written = exportEdf(late, wholeOf(late, GapPolicy::Split), out.string(), {});
    ASSERT_FALSE(written.ok());
    EXPECT_EQ(written.error().path, (dir.path() / "late_2.edf").string());
    EXPECT_NE(written.error().message.find("would start at 2085-01-01T00:00:0"), std::string::npos)
        << written.error().message;
    EXPECT_FALSE(fs::exists(dir.path() / "late_1.edf"));
}

} // namespace
} // namespace lv::convert
