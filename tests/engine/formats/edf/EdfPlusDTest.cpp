// EDF+D made from a real EDF+C file (records cut out, the header set to EDF+D): gaps where records are missing,
// every kept record's samples at its time-keeping TAL's time.
#include "EdfTestSupport.h"

#include <gtest/gtest.h>

namespace lv::formats::edf {
namespace {

// test_generator.edf: 600 records of 1 s, 12 signals (11 at 200 Hz or less + annotations), each record's
// time-keeping TAL "+r". Keeps records [0, 100), [150, 300), [400, 600).
std::vector<std::uint8_t> cutRecords(const std::vector<std::uint8_t>& c, std::size_t headerBytes,
                                     std::size_t recordBytes)
{
    std::vector<std::uint8_t> d(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(headerBytes));
    for (std::size_t r = 0; r < 600; ++r) {
        if ((r >= 100 && r < 150) || (r >= 300 && r < 400)) continue;
        const auto at = c.begin() + static_cast<std::ptrdiff_t>(headerBytes + r * recordBytes);
        d.insert(d.end(), at, at + static_cast<std::ptrdiff_t>(recordBytes));
    }
    test::setField(d, 192, 44, "EDF+D");
    test::setField(d, 236, 8, "450");
    return d;
}

TEST(EdfPlusD, CutRecordsBecomeGapsAtTheRightTimes)
{
    const std::string source = (lv::test::testdata() / "edf/test_generator.edf").string();
    auto continuous = openEdf(source);
    ASSERT_TRUE(continuous) << continuous.error().describe();
    const EdfHeader& h = (*continuous)->header();
    lv::test::TempDir dir;
    const auto file = dir.path() / "cut.edf";
    lv::test::writeBytes(
        file, cutRecords(lv::test::readBytes(source), static_cast<std::size_t>(h.headerBytes), h.recordBytes));

    auto cut = openEdf(file.string());
    ASSERT_TRUE(cut) << cut.error().describe();
    const core::RecordingInfo& info = (*cut)->info();
    EXPECT_EQ(info.format, "EDF+D");
    EXPECT_TRUE(info.warnings.empty()) << info.warnings.front();
    const core::Uutc t0 = (*continuous)->info().start;
    const auto full = test::readAllPhysical(**continuous);
    const auto part = test::readAllPhysical(**cut);
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        const core::ChannelInfo& ch = info.channels[c];
        ASSERT_EQ(ch.gaps.size(), 2u) << ch.name;
        EXPECT_EQ(ch.gaps[0], (core::TimeRange{t0 + 100'000'000, t0 + 150'000'000})) << ch.name;
        EXPECT_EQ(ch.gaps[1], (core::TimeRange{t0 + 300'000'000, t0 + 400'000'000})) << ch.name;
        ASSERT_EQ(ch.segments.size(), 3u);
        EXPECT_EQ(ch.gridLength, (*continuous)->info().channels[c].gridLength);
        EXPECT_EQ(ch.sampleCount * 4, ch.gridLength * 3);
        for (std::size_t i = 0; i < part[c].size(); ++i) {
            const double second = static_cast<double>(i) / ch.fs;
            const bool missing = (second >= 100 && second < 150) || (second >= 300 && second < 400);
            if (missing)
                ASSERT_TRUE(std::isnan(part[c][i])) << ch.name << " " << i;
            else
                ASSERT_EQ(part[c][i], full[c][i]) << ch.name << " " << i;
        }
    }
    // Annotations keep their times: "Recording ends" lies in the last kept record.
    ASSERT_EQ(info.annotations.size(), (*continuous)->info().annotations.size());
    EXPECT_EQ(info.annotations.back().time, (*continuous)->info().annotations.back().time);
    // A block per record: 450 blocks, the 100th starting where record 150 was.
    const auto blocks = (*cut)->blocks(0);
    ASSERT_EQ(blocks.size(), 450u);
    EXPECT_EQ(blocks[100].first, 150 * static_cast<std::int64_t>(blocks[0].count));
}

} // namespace
} // namespace lv::formats::edf
