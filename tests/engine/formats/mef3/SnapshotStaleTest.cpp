// Stale snapshots: a non-last segment rewritten in place, files copied over with their times preserved, an archive
// replaced by one of the same size and time; each is seen by the open's check (the changed channel is read again),
// by a deferred check, and by the first read of the segment after a deferred open (an error, never old values).
#include "formats/mef3/Snapshot.h"

#include "core/LittleEndian.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/SessionWriter.h"
#include "formats/mef3/UniversalHeader.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;

const core::SampleGrid kGrid{1'700'000'000'000'000, 256.0};
constexpr std::int64_t kSegmentSamples = 2560;
const char* const kFirstTmet = "a.timd/a-000000.segd/a-000000.tmet";

// Channels a and b, three segments each, conversion factor `factor`.
void writeSession(const fs::path& path, double factor)
{
    auto w = SessionWriter::create(path.string(), {1.0, "", "", nullptr, Durability::Fast, {}, {}});
    ASSERT_TRUE(w.ok()) << w.error().describe();
    for (const char* name : {"a", "b"}) ASSERT_TRUE((*w)->addChannel({name, 256.0, "uV", factor, ""}).ok());
    std::vector<std::int32_t> samples(kSegmentSamples);
    for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<std::int32_t>(i % 97) - 40;
    for (int seg = 0; seg < 3; ++seg)
        for (std::size_t c = 0; c < 2; ++c) {
            if (seg > 0) {
                ASSERT_TRUE((*w)->startSegment(c).ok());
            }
            ASSERT_TRUE((*w)->append(c, kGrid, seg * kSegmentSamples, samples).ok());
        }
    ASSERT_TRUE((*w)->finish().ok());
}

// Rewrites the conversion factor of a .tmet in place (same size), CRCs fixed.
void setFactor(const fs::path& tmet, double factor)
{
    auto bytes = test::readBytes(tmet);
    ASSERT_GT(bytes.size(), 8768u);
    core::le::store(&bytes[8760], factor);
    sealFile(bytes);
    test::writeBytes(tmet, bytes);
}

double factorOf(const std::string& path, const std::string& snapshots)
{
    auto r = openMef3(path, {"", snapshots});
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r ? (*r)->info().channels.at(0).conversionFactor : 0.0;
}

std::string readError(MefRecording& r)
{
    const std::size_t channels[] = {0};
    auto got = core::readRange(r, channels, {r.info().channels[0].start, r.info().channels[0].end}, {});
    return got ? std::string("read ok") : got.error().describe();
}

struct StaleSnapshots : ::testing::Test {
    test::TempDir dir;
    std::string snapshots = (dir.path() / "snapshots").string();
    fs::path session = dir.path() / "s.mefd";
    void SetUp() override
    {
        writeSession(session, 0.1);
        EXPECT_EQ(factorOf(session.string(), snapshots), 0.1); // a full open writes the snapshot
        ASSERT_TRUE(fs::exists(snapshotFile(snapshots, session.string())));
        EXPECT_EQ(factorOf(session.string(), snapshots), 0.1);
    }
};

// (a) The first segment's metadata rewritten in place: the open reads that channel again.
TEST_F(StaleSnapshots, ANonLastSegmentRewrittenInPlaceIsSeenByTheOpen)
{
    setFactor(session / kFirstTmet, 0.2);
    auto r = openMef3(session.string(), {"", snapshots});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ((*r)->info().channels[0].conversionFactor, 0.2);
    EXPECT_EQ((*r)->info().channels[1].conversionFactor, 0.1);
    EXPECT_TRUE((*r)->channelReadFromFiles(0));
    EXPECT_FALSE((*r)->channelReadFromFiles(1));
    EXPECT_EQ(factorOf(session.string(), snapshots), 0.2); // and the snapshot was rewritten
}

// (a) after a deferred open: the background check says which channel changed, and a read of the changed segment
// fails rather than decoding with what the snapshot says; the snapshot is gone, so the next open reads the files.
TEST_F(StaleSnapshots, ADeferredOpenNeverReadsAChangedSegment)
{
    auto r = openMef3(session.string(), {"", snapshots, true});
    ASSERT_TRUE(r.ok());
    setFactor(session / kFirstTmet, 0.2);
    const SnapshotCheck check = (*r)->checkSnapshot();
    EXPECT_EQ(check.state, SnapshotCheck::State::Stale);
    EXPECT_FALSE(check.sessionChanged);
    EXPECT_EQ(check.changedChannels, std::vector<std::size_t>{0});
    EXPECT_EQ(readError(**r),
              (session / "a.timd/a-000000.segd").string() + ": changed since it was opened; open it again");
    EXPECT_FALSE(fs::exists(snapshotFile(snapshots, session.string())));
    EXPECT_EQ(factorOf(session.string(), snapshots), 0.2);
}

// (b) A file copied over with its size and modification time kept (cp -p, touch -r): its status-change time moved.
TEST_F(StaleSnapshots, AFileCopiedOverWithPreservedTimesIsSeen)
{
    const fs::path other = dir.path() / "other.mefd";
    writeSession(other, 0.2);
    const fs::path target = session / kFirstTmet;
    const auto size = fs::file_size(target);
    const auto time = fs::last_write_time(target);
    fs::copy_file(other / kFirstTmet, target, fs::copy_options::overwrite_existing);
    fs::last_write_time(target, time);
    ASSERT_EQ(fs::file_size(target), size);
    EXPECT_EQ(factorOf(session.string(), snapshots), 0.2);
}

// (c) An archive replaced by another of the same size and time: another inode.
TEST_F(StaleSnapshots, AnArchiveReplacedByOneOfTheSameSizeAndTimeIsSeen)
{
    const fs::path other = dir.path() / "other" / "s.mefd";
    fs::create_directories(other.parent_path());
    writeSession(other, 0.2);
    const fs::path tar = dir.path() / "s.mefd.tar", replacement = dir.path() / "new.tar";
    ASSERT_EQ(test::run("tar --format=ustar --mtime=@0 -C " + dir.path().string() + " -cf " + tar.string() + " s.mefd"),
              0);
    ASSERT_EQ(test::run("tar --format=ustar --mtime=@0 -C " + other.parent_path().string() + " -cf " +
                        replacement.string() + " s.mefd"),
              0);
    ASSERT_EQ(fs::file_size(tar), fs::file_size(replacement));
    EXPECT_EQ(factorOf(tar.string(), snapshots), 0.1);
    EXPECT_EQ(factorOf(tar.string(), snapshots), 0.1); // from the snapshot
    const auto time = fs::last_write_time(tar);
    fs::last_write_time(replacement, time);
    fs::rename(replacement, tar);
    EXPECT_EQ(factorOf(tar.string(), snapshots), 0.2);
}

// (c) after a deferred open of the archive: reads fail once it was replaced.
TEST_F(StaleSnapshots, ADeferredOpenOfAReplacedArchiveNeverReadsIt)
{
    const fs::path tar = dir.path() / "s.mefd.tar";
    ASSERT_EQ(test::run("tar --format=ustar -C " + dir.path().string() + " -cf " + tar.string() + " s.mefd"), 0);
    EXPECT_EQ(factorOf(tar.string(), snapshots), 0.1);
    auto r = openMef3(tar.string(), {"", snapshots, true});
    ASSERT_TRUE(r.ok());
    const auto time = fs::last_write_time(tar);
    fs::copy_file(tar, dir.path() / "copy.tar");
    fs::last_write_time(dir.path() / "copy.tar", time);
    fs::rename(dir.path() / "copy.tar", tar);
    EXPECT_TRUE((*r)->checkSnapshot().sessionChanged);
    EXPECT_EQ(readError(**r), tar.string() + ": changed since it was opened; open it again");
}

} // namespace
} // namespace lv::formats::mef3
