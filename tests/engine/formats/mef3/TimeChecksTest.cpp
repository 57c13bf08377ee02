// Block times against what else the files say: a RED header's own time (under its CRC), the segment headers'
// start times, their spans at the channel's rate, and the present. Damage none of the CRCs catches.
#include "support/MefPatch.h"
#include "support/TestSupport.h"

#include "core/LittleEndian.h"
#include "core/Recording.h"
#include "core/TimeFormat.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/TimeSeriesIndex.h"
#include "formats/mef3/UniversalHeader.h"
#include "formats/mef3/Validator.h"

#include <algorithm>
#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;

// LA1 of meflib_rto: 28 blocks of 2560 samples at 256 Hz (10 s each, two 10 s gaps) over 300 s from T0, stored as
// offset times
// (-18,000,000,000 us for block 0); its .tidx and .tdat headers hold true times, its .tmet offset ones.
constexpr core::Uutc kT0 = test::kMeflibRtoStart;
constexpr std::int64_t kStored0 = test::kMeflibRtoStoredStart;
constexpr core::Uutc kSecond = 1'000'000;

std::size_t entryTime(std::size_t entry) { return kUniversalHeaderBytes + entry * kIndexEntryBytes + 8; }

class TimeChecks : public test::MeflibRtoCopy {
protected:
    std::string file(const std::string& ext) const { return test::meflibRtoSegmentFile(session, ext).string(); }
    // Stores block `entry`'s index time as `seconds` after T0 (offset form), the .tidx CRCs sealed again.
    void moveEntry(std::size_t entry, double seconds)
    {
        test::patchSealed(file("tidx"), entryTime(entry),
                          kStored0 - static_cast<std::int64_t>(seconds * static_cast<double>(kSecond)));
    }
    static bool holds(const std::vector<std::string>& lines, const std::string& text)
    {
        return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(text) != l.npos; });
    }
};

TEST_F(TimeChecks, ABlockPlacedAtATimeItsOwnHeaderDoesNotGiveIsADamagedBlock)
{
    moveEntry(10, 102); // its RED header (under the block CRC) still says 100 s
    auto r = openMef3(session.string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const std::vector<std::uint8_t> index = test::readBytes(file("tidx"));
    const auto offset = core::le::load<std::int64_t>(&index[kUniversalHeaderBytes + 10 * kIndexEntryBytes]);
    const std::string message = "RED block 10: its header says it starts at " + core::formatIso(kT0 + 100 * kSecond) +
                                ", the index places it at " + core::formatIso(kT0 + 102 * kSecond);
    std::vector<std::size_t> la1 = {0};
    const core::TimeRange all{(*r)->info().start, (*r)->info().end};
    auto refused = core::readRange(**r, la1, all, {});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(refused.error().path, file("tdat"));
    EXPECT_EQ(refused.error().offset, offset);
    EXPECT_EQ(refused.error().message, message);
    core::ReadControl skip;
    skip.skipDamagedBlocks = true;
    auto gapped = core::readRange(**r, la1, all, skip);
    ASSERT_TRUE(gapped.ok()) << gapped.error().describe();
    const std::vector<std::string> warnings = {file("tdat") + ": " + message + " (at byte " + std::to_string(offset) +
                                               "); its samples read as missing"};
    EXPECT_EQ((*r)->takeWarnings(), warnings);
    EXPECT_TRUE(holds(problems(), file("tdat") + " @" + std::to_string(offset) +
                                      ": RED block 10 header disagrees with its index entry"));
}

TEST_F(TimeChecks, AFirstBlockItsSegmentHeadersDoNotStartAtIsSaidByInfo)
{
    moveEntry(0, -1);
    auto r = openMef3(session.string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const std::string said = ": its header says the segment starts at " + core::formatIso(kT0) +
                             ", its index's first block at " + core::formatIso(kT0 - kSecond);
    const std::string rest = ": one of the times is damaged; the index's times are used";
    const std::vector<std::string> expected = {
        file("tmet") + said + rest,
        file("tidx") + said + " (with the recording time offset)" + rest,
        file("tdat") + said + " (with the recording time offset)" + rest,
        file("tidx") + ": index entry 0 (at byte 1024): its block of 2560 samples at " +
            core::formatIso(kT0 - kSecond) + " lies outside the segment's span " + core::formatIso(kT0) + " to " +
            core::formatIso(kT0 + 300 * kSecond) + " (its header): its samples are missing",
    };
    EXPECT_EQ((*r)->info().warnings, expected);
    EXPECT_EQ((*r)->info().channels[0].sampleCount, 27 * 2560);
    EXPECT_TRUE(holds(problems(), file("tmet") + said));
}

TEST_F(TimeChecks, ABlockASecondPastItsSegmentsEndIsDropped)
{
    moveEntry(27, 291); // it starts at 290 s (LA1 has two 10 s gaps) and ends with the span
    auto r = openMef3(session.string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const std::vector<std::string> expected = {
        file("tidx") + ": index entry 27 (at byte 2536): its block of 2560 samples at " +
        core::formatIso(kT0 + 291 * kSecond) + " lies outside the segment's span " + core::formatIso(kT0) + " to " +
        core::formatIso(kT0 + 300 * kSecond) + " (its header): its samples are missing"};
    EXPECT_EQ((*r)->info().warnings, expected);
    EXPECT_EQ((*r)->info().channels[0].sampleCount, 27 * 2560);
}

// An append killed between its index and its metadata: the index holds blocks past the metadata header's end. The
// rate is not taken for damaged (CrashSafety met this once: "its 5120 samples ... last 20 s, but its header's span
// is 10 s"); the session opens, and the blocks that continue the ones before them are kept (all 28 here).
TEST_F(TimeChecks, BlocksPastAnEndTheMetadataHasNotCaughtUpWithAreNotADamagedRate)
{
    test::patchSealed(file("tmet"), 24, kStored0 - 150 * kSecond); // its header's end: 150 s after T0, of 300
    auto r = openMef3(session.string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ((*r)->info().channels[0].sampleCount, 28 * 2560);
}

TEST_F(TimeChecks, ARateItsSegmentsSpanCannotHoldIsRefusedByEveryOpenAndValidate)
{
    test::patchSealed(file("tmet"), kSamplingFrequencyOffset, 1e-5);
    auto r = openMef3(session.string(), {});
    ASSERT_FALSE(r.ok());
    const std::string message = "its 71680 samples at the sampling frequency of 1e-05 Hz last 7168000000 s, but its "
                                "header's span is 300 s: the sampling frequency or the header times are damaged";
    EXPECT_EQ(r.error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(r.error().path, file("tmet"));
    EXPECT_EQ(r.error().offset, kSamplingFrequencyOffset);
    EXPECT_EQ(r.error().message, message);
    const std::vector<std::string> found = {file("tmet") + " @8720: " + message};
    EXPECT_EQ(problems(), found);
}

TEST_F(TimeChecks, ARecordingTimeOffsetThatPutsTheStartInTheFutureIsSaid)
{
    constexpr core::Uutc k2100 = 4'102'444'800'000'000;
    test::patchSealed(file("tmet"), 13312, k2100 + kStored0);
    auto r = openMef3(session.string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ((*r)->info().start, k2100);
    const std::string start = "the recording starts at " + core::formatIso(k2100) + ", after the present (";
    const std::string end = "): the recording time offset (" + file("tmet") +
                            ", byte 13312) or a start time is "
                            "damaged or wrong";
    const auto& w = (*r)->info().warnings;
    const auto future = std::find_if(w.begin(), w.end(), [&](const std::string& s) { return s.find(start) == 0; });
    ASSERT_NE(future, w.end());
    EXPECT_EQ(future->substr(future->size() - end.size()), end);
    // LA1's .tidx header keeps the true start: the offset disagrees with it.
    EXPECT_TRUE(holds(w, file("tidx") + ": its header says the segment starts at " + core::formatIso(kT0)));
    EXPECT_TRUE(holds(problems(), " @-1: " + start));
}

TEST_F(TimeChecks, ValidateDecodesEveryBlockAsAReadWould)
{
    patchBlock(28, std::uint32_t{0}); // the difference bytes of block 0
    auto r = openMef3(session.string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    std::vector<std::size_t> la1 = {0};
    auto refused = core::readRange(**r, la1, {(*r)->info().start, (*r)->info().end}, {});
    ASSERT_FALSE(refused.ok());
    const std::vector<std::string> found = {file("tdat") + " @1024: " + refused.error().message};
    EXPECT_EQ(problems(), found);
}

TEST_F(TimeChecks, RelativeTimesReadTheSameFromASnapshot)
{
    test::patchSealed(file("tmet"), 13312, kUutcNoEntry); // no offset recorded: a level-1 copy's times
    const std::string snapshots = (dir.path() / "snapshots").string();
    std::vector<std::vector<std::int32_t>> reads;
    for (int pass = 0; pass < 2; ++pass) {
        auto r = openMef3(session.string(), OpenOptions{"", snapshots});
        ASSERT_TRUE(r.ok()) << r.error().describe();
        EXPECT_FALSE((*r)->info().timesKnown);
        EXPECT_EQ((*r)->channelsReadFromFiles(), pass == 0 ? 2u : 0u);
        std::vector<std::size_t> la1 = {0};
        auto samples = core::readRange(**r, la1, {(*r)->info().start, (*r)->info().end}, {});
        ASSERT_TRUE(samples.ok()) << samples.error().describe();
        reads.push_back((*samples)[0].raw);
    }
    EXPECT_EQ(reads[0].size(), 76800u);
    EXPECT_EQ(reads[0], reads[1]);
}

} // namespace
} // namespace lv::formats::mef3
