// Record durations and sampling rates an EDF header may give: below a microsecond a record is refused, and a
// signal's rate (samples a record over the duration) must lie within [1e-6, 1e6] Hz.
#include "EdfTestSupport.h"

#include "core/Recording.h"

#include <chrono>
#include <gtest/gtest.h>
#include <tuple>
#include <vector>

namespace lv::formats::edf {
namespace {

// test_generator.edf (12 signals, 600 records of 1 s, 200 samples a record) with its duration field replaced.
core::Result<std::unique_ptr<EdfRecording>> openWithDuration(const std::filesystem::path& file,
                                                             const std::string& duration)
{
    auto bytes = lv::test::readBytes(lv::test::testdata() / "edf/test_generator.edf");
    test::setField(bytes, 244, 8, duration);
    lv::test::writeBytes(file, bytes);
    const auto began = std::chrono::steady_clock::now();
    auto r = openEdf(file.string());
    EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(5));
    return r;
}

TEST(EdfBounds, ARecordShorterThanAMicrosecondIsRefused)
{
    lv::test::TempDir dir;
    const auto file = dir.path() / "d.edf";
    auto r = openWithDuration(file, "1e-300");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(r.error().path, file.string());
    EXPECT_EQ(r.error().offset, 244);
    EXPECT_EQ(r.error().message,
              "the duration of a data record, 1e-300 s, is below 1 microsecond (the resolution of recording times)");
}

TEST(EdfBounds, ARecordCountBeyondEightDigitsIsRefused)
{
    lv::test::TempDir dir;
    const auto file = dir.path() / "d.edf";
    auto bytes = lv::test::readBytes(lv::test::testdata() / "edf/test_generator.edf");
    test::setField(bytes, 236, 8, "6.9e+69"); // what fuzz_edf found: undefined behaviour in the cast before
    test::setField(bytes, 184, 8, "1e+300");  // and a header size no integer holds (only a warning)
    lv::test::writeBytes(file, bytes);
    auto r = openEdf(file.string());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(r.error().offset, 236);
    EXPECT_EQ(r.error().message,
              "the number of data records, 6.9e+69, is more than the 99999999 its 8 characters can hold");
}

TEST(EdfBounds, AHeaderSizeNoIntegerHoldsIsOnlyAWarning)
{
    lv::test::TempDir dir;
    const auto file = dir.path() / "d.edf";
    auto bytes = lv::test::readBytes(lv::test::testdata() / "edf/test_generator.edf");
    test::setField(bytes, 184, 8, "1e+300");
    lv::test::writeBytes(file, bytes);
    auto r = openEdf(file.string());
    ASSERT_TRUE(r.ok()) << r.error().describe();
    bool warned = false;
    for (const std::string& w : (*r)->info().warnings)
        warned = warned || w.find("the header size field says \"1e+300\"") != std::string::npos;
    EXPECT_TRUE(warned);
}

TEST(EdfBounds, ASamplingRateAboveAMegahertzIsRefused)
{
    lv::test::TempDir dir;
    const auto file = dir.path() / "d.edf";
    auto r = openWithDuration(file, "0.00001");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(r.error().path, file.string());
    EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(test::signalField(12, 8, 0)));
    EXPECT_EQ(r.error().message, "signal 1's sampling rate 20000000 Hz is outside [1e-06, 1000000] Hz (200 samples "
                                 "a record of 1e-05 s)");
}

TEST(EdfBounds, ASamplingRateBelowAMicrohertzIsRefused)
{
    lv::test::TempDir dir;
    const auto file = dir.path() / "d.edf";
    auto bytes = lv::test::readBytes(lv::test::testdata() / "edf/test_generator.edf");
    test::setField(bytes, 244, 8, "9000000");
    test::setField(bytes, test::signalField(12, 8, 2), 8, "1");
    lv::test::writeBytes(file, bytes);
    auto r = openEdf(file.string());
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(test::signalField(12, 8, 2)));
    EXPECT_EQ(r.error().message, "signal 3's sampling rate 1.11111111111111e-07 Hz is outside [1e-06, 1000000] Hz "
                                 "(1 samples a record of 9000000 s)");
}

TEST(EdfBounds, AMegahertzOpens)
{
    lv::test::TempDir dir;
    auto r = openWithDuration(dir.path() / "d.edf", "0.0002"); // 200 samples in 200 us
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_DOUBLE_EQ((*r)->info().channels[0].fs, 1e6);
}

TEST(EdfBounds, RecordsOfNoBytesAreNotCountedOnTheHeadersWord)
{
    lv::test::TempDir dir;
    const auto file = dir.path() / "d.edf";
    auto bytes = lv::test::readBytes(lv::test::testdata() / "edf/test_generator.edf");
    test::setField(bytes, 236, 8, "99999999");
    for (std::size_t k = 0; k < 12; ++k) test::setField(bytes, test::signalField(12, 8, k), 8, "0");
    lv::test::writeBytes(file, bytes);
    auto r = openEdf(file.string());
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_TRUE((*r)->info().channels.empty());
    const auto& w = (*r)->info().warnings;
    EXPECT_NE(std::find(w.begin(), w.end(),
                        "no signal has samples: the 99999999 data records the header announces "
                        "hold nothing"),
              w.end());
}

} // namespace
} // namespace lv::formats::edf

namespace lv::formats::edf {
namespace {

// test_generator.edf with signal 1's field of `column` (0 physical minimum ... 3 digital maximum) set.
core::Result<std::unique_ptr<EdfRecording>> openWithRange(const std::filesystem::path& file, std::size_t column,
                                                          const std::string& value)
{
    auto bytes = lv::test::readBytes(lv::test::testdata() / "edf/test_generator.edf");
    test::setField(bytes, test::signalField(12, 3 + column, 0), 8, value);
    lv::test::writeBytes(file, bytes);
    return openEdf(file.string());
}

TEST(EdfBounds, DigitalBoundsOutsideTheSampleWidthAndAbsurdPhysicalBoundsAreRefused)
{
    lv::test::TempDir dir;
    const auto file = dir.path() / "d.edf";
    const std::vector<std::tuple<std::size_t, std::string, std::string>> cases = {
        {2, "-9999999", "signal 1's digital minimum -9999999 is outside the 16-bit sample range [-32768, 32767]"},
        {3, "99999999", "signal 1's digital maximum 99999999 is outside the 16-bit sample range [-32768, 32767]"},
        {3, "32768", "signal 1's digital maximum 32768 is outside the 16-bit sample range [-32768, 32767]"},
        {0, "-1e300", "signal 1's physical minimum -1e+300 is beyond 1e30 in magnitude"},
        {1, "1e31", "signal 1's physical maximum 1e+31 is beyond 1e30 in magnitude"},
    };
    for (const auto& [column, value, message] : cases) {
        auto r = openWithRange(file, column, value);
        ASSERT_FALSE(r.ok()) << value;
        EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
        EXPECT_EQ(r.error().path, file.string());
        EXPECT_EQ(r.error().offset, static_cast<std::int64_t>(test::signalField(12, 3 + column, 0)));
        EXPECT_EQ(r.error().message, message);
    }
    for (const auto& [column, value] : {std::pair<std::size_t, std::string>{2, "-32768"}, {1, "1e30"}}) {
        auto r = openWithRange(file, column, value);
        EXPECT_TRUE(r.ok()) << value << ": " << r.error().describe();
    }
}

TEST(EdfBounds, SamplesOutsideTheDeclaredDigitalRangeAreSaidOnceAndKeptAsStored)
{
    lv::test::TempDir dir;
    const auto file = dir.path() / "d.edf";
    auto clean = openEdf((lv::test::testdata() / "edf/test_generator.edf").string());
    ASSERT_TRUE(clean.ok()) << clean.error().describe();
    auto narrowed = openWithRange(file, 3, "0"); // digital maximum 0: every positive sample lies outside
    ASSERT_TRUE(narrowed.ok()) << narrowed.error().describe();
    std::vector<std::size_t> first = {0};
    const core::TimeRange all{(*clean)->info().start, (*clean)->info().end};
    auto before = core::readRange(**clean, first, all, {});
    auto after = core::readRange(**narrowed, first, all, {});
    ASSERT_TRUE(before.ok() && after.ok());
    EXPECT_EQ((*after)[0].raw, (*before)[0].raw); // kept as stored
    EXPECT_TRUE((*clean)->takeWarnings().empty());
    const std::vector<std::string> warnings = (*narrowed)->takeWarnings();
    ASSERT_EQ(warnings.size(), 1u);
    const EdfSignal& s = (*clean)->header().signals[0];
    const std::string head = file.string() + ": signal 1 (\"" + s.label + "\"): sample ";
    ASSERT_EQ(warnings[0].rfind(head, 0), 0u) << warnings[0];
    EXPECT_GT(std::stoi(warnings[0].substr(head.size())), 0);
    EXPECT_NE(warnings[0].find(" lies outside the digital range [" + std::to_string(s.digitalMin) +
                               ", 0] its header declares: the range or the samples are damaged (values kept as "
                               "stored)"),
              std::string::npos)
        << warnings[0];
    ASSERT_TRUE(core::readRange(**narrowed, first, all, {}).ok());
    EXPECT_TRUE((*narrowed)->takeWarnings().empty()); // once per channel
}

TEST(EdfBounds, RecordsOfNoDurationWithSamplesAreRefused)
{
    lv::test::TempDir dir;
    const auto file = dir.path() / "d.edf";
    auto r = openWithDuration(file, "0");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(r.error().path, file.string());
    EXPECT_EQ(r.error().offset, 244);
    EXPECT_EQ(r.error().message, "the duration of a data record is 0, but signal 1 (\"squarewave\") has samples in "
                                 "each record (only annotations may)");
}

} // namespace
} // namespace lv::formats::edf
