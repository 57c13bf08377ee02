// Sloppy but readable files open with warnings (and the values the header means); unreadable ones give clear
// errors naming the file and byte offset.
#include "EdfTestSupport.h"

#include "core/Recording.h"

#include <gtest/gtest.h>

namespace lv::formats::edf {
namespace {

const std::string kSubsecond = (lv::test::testdata() / "edf/test_subsecond.edf").string(); // 2 signals, 698 records

struct Edited {
    lv::test::TempDir dir;
    std::string path;
    core::Result<std::unique_ptr<EdfRecording>> open() { return openEdf(path); }
};

// A copy of test_subsecond.edf changed by `edit`.
std::unique_ptr<Edited> edited(const std::function<void(std::vector<std::uint8_t>&)>& edit)
{
    auto e = std::make_unique<Edited>();
    auto bytes = lv::test::readBytes(kSubsecond);
    edit(bytes);
    e->path = (e->dir.path() / "edited.edf").string();
    lv::test::writeBytes(e->path, bytes);
    return e;
}

bool hasWarning(const core::RecordingInfo& info, const std::string& part)
{
    for (const std::string& w : info.warnings)
        if (w.find(part) != std::string::npos) return true;
    return false;
}

std::string allWarnings(const core::RecordingInfo& info)
{
    std::string s;
    for (const std::string& w : info.warnings) s += w + "\n";
    return s;
}

TEST(EdfSloppy, ReferenceFilesOpenWithoutWarningsExceptTheRightAlignedBdf)
{
    for (const std::string& file : test::referenceFiles()) {
        auto r = openEdf(file);
        ASSERT_TRUE(r) << r.error().describe();
        if (file.ends_with("/test.bdf"))
            EXPECT_TRUE(hasWarning((*r)->info(), "numbers not left-aligned")) << allWarnings((*r)->info());
        else
            EXPECT_TRUE((*r)->info().warnings.empty()) << file << ": " << allWarnings((*r)->info());
    }
}

TEST(EdfSloppy, RecordCountMinusOneOrWrongIsTakenFromTheFileSize)
{
    auto minusOne = edited([](auto& b) { test::setField(b, 236, 8, "-1"); });
    auto r = minusOne->open();
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_TRUE(hasWarning((*r)->info(), "-1 (unknown): 698 found")) << allWarnings((*r)->info());
    EXPECT_EQ((*r)->info().channels[0].gridLength, 698 * 128);

    auto tooMany = edited([](auto& b) { test::setField(b, 236, 8, "700"); });
    r = tooMany->open();
    ASSERT_TRUE(r);
    EXPECT_TRUE(hasWarning((*r)->info(), "announces 700 data records, the file holds 698"));
    EXPECT_EQ((*r)->info().channels[0].gridLength, 698 * 128);

    auto tooFew = edited([](auto& b) { test::setField(b, 236, 8, "600"); });
    r = tooFew->open();
    ASSERT_TRUE(r);
    EXPECT_TRUE(hasWarning((*r)->info(), "98 data records more than the header announces"));
    EXPECT_EQ((*r)->info().channels[0].gridLength, 600 * 128);
}

TEST(EdfSloppy, TruncatedLastRecordIsDropped)
{
    auto cut = edited([](auto& b) { b.resize(b.size() - 100); });
    auto r = cut->open();
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_TRUE(hasWarning((*r)->info(), "the last data record is cut off")) << allWarnings((*r)->info());
    EXPECT_TRUE(hasWarning((*r)->info(), "announces 698 data records, the file holds 697"));
    EXPECT_EQ((*r)->info().channels[0].gridLength, 697 * 128);
    EXPECT_TRUE(test::readAllPhysical(**r).size() == 1);
}

TEST(EdfSloppy, RightAlignedNumbersAndNonAsciiTextAreRead)
{
    auto e = edited([](auto& b) {
        test::setField(b, 236, 8, "     698");
        test::setField(b, test::signalField(2, 8, 0), 8, "     128");
        test::setField(b, 8, 80, "X X X Fran\xe7ois");
    });
    auto r = e->open();
    ASSERT_TRUE(r) << r.error().describe();
    EXPECT_TRUE(
        hasWarning((*r)->info(), "numbers not left-aligned in the header (number of data records, samples per record)"))
        << allWarnings((*r)->info());
    EXPECT_TRUE(hasWarning((*r)->info(), "non-ASCII bytes in the patient field"));
    EXPECT_EQ((*r)->header().patient, "X X X Fran\xc3\xa7ois");
    EXPECT_EQ((*r)->info().channels[0].gridLength, 698 * 128);
}

TEST(EdfSloppy, DigitalRangeSwappedOrEmpty)
{
    // Fp1: physical 8711 .. -8711 (inverted), digital -32768 .. 32767.
    auto swapped = edited([](auto& b) {
        test::setField(b, test::signalField(2, 5, 0), 8, "32767");
        test::setField(b, test::signalField(2, 6, 0), 8, "-32768");
    });
    auto r = swapped->open();
    ASSERT_TRUE(r);
    EXPECT_TRUE(hasWarning((*r)->info(), "digital minimum above maximum")) << allWarnings((*r)->info());
    EXPECT_NEAR((*r)->info().channels[0].conversionFactor, 17422.0 / 65535.0, 1e-12); // the two points kept
    ASSERT_TRUE(core::readEverySample(**r, {}).ok());
    EXPECT_TRUE((*r)->takeWarnings().empty()); // the range in either order holds every sample: said once, above

    auto equal = edited([](auto& b) { test::setField(b, test::signalField(2, 6, 0), 8, "-32768"); });
    r = equal->open();
    ASSERT_TRUE(r);
    EXPECT_TRUE(hasWarning((*r)->info(), "digital minimum equals maximum")) << allWarnings((*r)->info());
    EXPECT_TRUE(std::isfinite((*r)->info().channels[0].conversionFactor));
}

TEST(EdfSloppy, UnreadableHeadersAreClearErrors)
{
    auto notEdf = edited([](auto& b) { b[0] = 'X'; });
    auto r = notEdf->open();
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ErrorCode::Unsupported);
    EXPECT_EQ(r.error().path, notEdf->path);
    EXPECT_EQ(r.error().offset, 0);

    auto badNumber = edited([](auto& b) { test::setField(b, test::signalField(2, 3, 1), 8, "abc"); });
    r = badNumber->open();
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(test::signalField(2, 3, 1)));
    EXPECT_NE(r.error().message.find("signal 2's physical minimum is not a number: \"abc"), std::string::npos)
        << r.error().message;

    auto shortHeader = edited([](auto& b) { b.resize(600); });
    r = shortHeader->open();
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ErrorCode::Truncated);
    EXPECT_EQ(r.error().offset, 600);
}

} // namespace
} // namespace lv::formats::edf
