// Metadata snapshots: the second open is served from the snapshot (and agrees with a full open), changes the
// fingerprint covers invalidate it, damaged snapshots are ignored and rebuilt, encrypted sessions get none.
#include "formats/mef3/Snapshot.h"

#include "formats/mef3/MefRecording.h"
#include "formats/mef3/SessionWriter.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;

struct Opened {
    core::RecordingInfo info;
    std::vector<std::vector<std::int32_t>> samples;
};

core::Result<Opened> openAndRead(const std::string& path, const std::string& snapshots)
{
    auto r = openMef3(path, {"", snapshots});
    if (!r) return r.error();
    Opened o{(*r)->info(), {}};
    for (std::size_t c = 0; c < o.info.channels.size(); ++c) {
        const std::size_t channels[] = {c};
        auto got = core::readRange(**r, channels, {o.info.channels[c].start, o.info.channels[c].end}, {});
        if (!got) return got.error();
        o.samples.push_back(got->front().raw);
    }
    return o;
}

void expectSame(const Opened& a, const Opened& b)
{
    ASSERT_EQ(a.info.channels.size(), b.info.channels.size());
    for (std::size_t c = 0; c < a.info.channels.size(); ++c) {
        const core::ChannelInfo &x = a.info.channels[c], &y = b.info.channels[c];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.fs, y.fs);
        EXPECT_EQ(x.unit, y.unit);
        EXPECT_EQ(x.conversionFactor, y.conversionFactor);
        EXPECT_EQ(x.start, y.start);
        EXPECT_EQ(x.end, y.end);
        EXPECT_EQ(x.sampleCount, y.sampleCount);
        EXPECT_EQ(x.gridLength, y.gridLength);
        EXPECT_EQ(x.segments, y.segments);
        EXPECT_EQ(x.gaps, y.gaps);
    }
    ASSERT_EQ(a.info.annotations.size(), b.info.annotations.size());
    for (std::size_t i = 0; i < a.info.annotations.size(); ++i) {
        EXPECT_EQ(a.info.annotations[i].time, b.info.annotations[i].time);
        EXPECT_EQ(a.info.annotations[i].text, b.info.annotations[i].text);
        EXPECT_EQ(a.info.annotations[i].channel, b.info.annotations[i].channel);
    }
    EXPECT_EQ(a.info.warnings, b.info.warnings);
    EXPECT_EQ(a.info.start, b.info.start);
    EXPECT_EQ(a.info.end, b.info.end);
    EXPECT_EQ(a.samples, b.samples);
}

struct Snapshots : ::testing::Test {
    test::TempDir dir;
    std::string snapshots = (dir.path() / "snapshots").string();
    std::string copy(const char* name)
    {
        const fs::path to = dir.path() / name;
        test::copyTree(test::testdata() / "mef3/legacy" / name, to);
        return to.string();
    }
};

TEST_F(Snapshots, TheSecondOpenComesFromTheSnapshotAndAgrees)
{
    const std::string path = copy("multi_segment.mefd");
    auto first = openAndRead(path, snapshots);
    ASSERT_TRUE(first.ok()) << first.error().describe();
    ASSERT_TRUE(fs::exists(snapshotFile(snapshots, path)));
    // Damage the first segment's metadata in place, keeping its time: a full open now fails, the fingerprint
    // (folder listings and the last segment's files) does not see it, so only a snapshot open succeeds.
    const fs::path tmet = fs::path(path) / "ch1.timd/ch1-000000.segd/ch1-000000.tmet";
    const auto time = fs::last_write_time(tmet);
    auto bytes = test::readBytes(tmet);
    bytes[100] ^= 0xFF;
    test::writeBytes(tmet, bytes);
    fs::last_write_time(tmet, time);
    fs::last_write_time(tmet.parent_path(), fs::last_write_time(tmet.parent_path())); // unchanged folder
    EXPECT_FALSE(openMef3(path, {}).ok());
    auto second = openAndRead(path, snapshots);
    ASSERT_TRUE(second.ok()) << second.error().describe();
    expectSame(*first, *second);
}

TEST_F(Snapshots, AnAppendOrANewAnnotationInvalidatesIt)
{
    const std::string path = (dir.path() / "w.mefd").string();
    const core::SampleGrid grid{1'700'000'000'000'000, 256.0};
    std::vector<std::int32_t> samples(5120, 7);
    {
        auto w = SessionWriter::create(path, {});
        ASSERT_TRUE(w.ok());
        ASSERT_TRUE((*w)->addChannel({"a", 256.0, "uV", 0.1, ""}).ok());
        ASSERT_TRUE((*w)->append(0, grid, 0, samples).ok());
        ASSERT_TRUE((*w)->finish().ok());
    }
    auto before = openAndRead(path, snapshots);
    ASSERT_TRUE(before.ok());
    {
        auto w = SessionWriter::open(path, {});
        ASSERT_TRUE(w.ok());
        ASSERT_TRUE((*w)->append(0, grid, 5120, samples).ok());
        (*w)->addAnnotation({grid.timeOf(100), 0, "Note", "added", std::nullopt});
        ASSERT_TRUE((*w)->finish().ok());
    }
    auto after = openAndRead(path, snapshots);
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(after->info.channels[0].sampleCount, 10240);
    ASSERT_EQ(after->info.annotations.size(), 1u);
    auto full = openAndRead(path, "");
    ASSERT_TRUE(full.ok());
    expectSame(*after, *full);
    // Every block reference, field by field, as a full open makes it.
    auto fromSnapshot = openMef3(path, {"", snapshots});
    auto fromFiles = openMef3(path, {});
    ASSERT_TRUE(fromSnapshot.ok() && fromFiles.ok());
    const auto& x = (*fromSnapshot)->details()[0].blocks;
    const auto& y = (*fromFiles)->details()[0].blocks;
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(x[i].segment, y[i].segment);
        EXPECT_EQ(x[i].indexEntry, y[i].indexEntry);
        EXPECT_EQ(x[i].fileOffset, y[i].fileOffset);
        EXPECT_EQ(x[i].blockBytes, y[i].blockBytes);
        EXPECT_EQ(x[i].sampleCount, y[i].sampleCount);
        EXPECT_EQ(x[i].startTime, y[i].startTime);
        EXPECT_EQ(x[i].gridIndex, y[i].gridIndex);
        EXPECT_EQ(x[i].minimum, y[i].minimum);
        EXPECT_EQ(x[i].maximum, y[i].maximum);
        EXPECT_EQ(x[i].flags, y[i].flags);
    }
}

TEST_F(Snapshots, ADamagedSnapshotIsIgnoredAndRebuilt)
{
    const std::string path = copy("nan_gap_long.mefd");
    ASSERT_TRUE(openAndRead(path, snapshots).ok());
    const std::string file = snapshotFile(snapshots, path);
    auto bytes = test::readBytes(file);
    for (std::size_t i = 12; i < bytes.size(); i += 7) bytes[i] ^= 0x5A;
    test::writeBytes(file, bytes);
    EXPECT_FALSE(loadSnapshot(path, snapshots).ok());
    test::writeBytes(file, {'L', 'V', 'S', 'N', 'A', 'P', '0', '1', 99, 0, 0, 0}); // another version
    EXPECT_FALSE(loadSnapshot(path, snapshots).ok());
    auto again = openAndRead(path, snapshots);
    ASSERT_TRUE(again.ok());
    auto full = openAndRead(path, "");
    ASSERT_TRUE(full.ok());
    expectSame(*again, *full);
    EXPECT_TRUE(loadSnapshot(path, snapshots).ok()); // rebuilt
}

TEST_F(Snapshots, EncryptedSessionsGetNoSnapshot)
{
    const std::string path = (test::testdata() / "mef3/legacy/enc_both.mefd").string();
    auto r = openMef3(path, {"", snapshots});
    EXPECT_FALSE(r.ok()); // needs its password
    for (const char* password : {"pass1", "pass2"}) {
        auto opened = openMef3(path, {password, snapshots});
        (void)opened;
    }
    EXPECT_FALSE(fs::exists(snapshotFile(snapshots, path)));
}

TEST_F(Snapshots, ArchivesAreCheckedByTheirSizeAndTime)
{
    const std::string session = copy("multi_channel.mefd");
    const std::string archive = (dir.path() / "multi_channel.mefd.tar").string();
    ASSERT_EQ(test::run("tar -C " + dir.path().string() + " -cf " + archive + " multi_channel.mefd"), 0);
    auto first = openAndRead(archive, snapshots);
    ASSERT_TRUE(first.ok()) << first.error().describe();
    ASSERT_TRUE(loadSnapshot(archive, snapshots).ok());
    auto second = openAndRead(archive, snapshots);
    ASSERT_TRUE(second.ok());
    expectSame(*first, *second);
    fs::last_write_time(archive, fs::last_write_time(archive) + std::chrono::seconds(5));
    EXPECT_FALSE(loadSnapshot(archive, snapshots).ok());
}

} // namespace
} // namespace lv::formats::mef3
