// Every reference session converted to a new MEF 3.0 session reads back sample-exactly: values, gaps,
// times and annotations; encrypted output opens with its passwords; failures leave nothing behind.
#include "convert/MefExport.h"

#include "decode/ThreadPool.h"
#include "formats/mef3/MefRecording.h"
#include "support/MemoryRecording.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#ifndef _WIN32
#include <sys/resource.h>
#endif

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

std::vector<std::vector<std::int32_t>> readAll(core::Recording& r)
{
    std::vector<std::vector<std::int32_t>> out;
    for (std::size_t c = 0; c < r.info().channels.size(); ++c) {
        const std::size_t channels[] = {c};
        const core::ChannelInfo& ch = r.info().channels[c];
        auto got = core::readRange(r, channels, {ch.start, ch.end}, {});
        EXPECT_TRUE(got.ok()) << got.error().describe();
        out.push_back(got.ok() ? got->front().raw : std::vector<std::int32_t>{});
    }
    return out;
}

class RoundTrip : public ::testing::TestWithParam<test::ManifestCase> {};

TEST_P(RoundTrip, ConvertedSessionReadsBackExactly)
{
    const test::ManifestCase& c = GetParam();
    auto source = formats::mef3::openMef3((c.folder / (c.name + ".mefd")).string(), {c.password});
    ASSERT_TRUE(source.ok());
    test::TempDir dir;
    const fs::path out = dir.path() / "copy.mefd";
    decode::ThreadPool pool(2);
    core::ReadControl control;
    control.runner = &pool;
    MefExportOptions options;
    options.range = {(*source)->info().start, (*source)->info().end};
    options.blockSeconds = 0.7; // blocks that do not line up with the source's
    const core::Status s = exportMef(**source, options, out.string(), control);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    auto copy = formats::mef3::openMef3(out.string(), {});
    ASSERT_TRUE(copy.ok()) << copy.error().describe();
    const core::RecordingInfo& a = (*source)->info();
    const core::RecordingInfo& b = (*copy)->info();
    EXPECT_TRUE(b.warnings.empty());
    ASSERT_EQ(a.channels.size(), b.channels.size());
    for (std::size_t i = 0; i < a.channels.size(); ++i) {
        EXPECT_EQ(a.channels[i].name, b.channels[i].name);
        EXPECT_EQ(a.channels[i].fs, b.channels[i].fs);
        EXPECT_EQ(a.channels[i].unit, b.channels[i].unit);
        EXPECT_EQ(a.channels[i].conversionFactor, b.channels[i].conversionFactor);
        EXPECT_EQ(a.channels[i].start, b.channels[i].start);
        EXPECT_EQ(a.channels[i].end, b.channels[i].end);
        EXPECT_EQ(a.channels[i].gaps, b.channels[i].gaps);
    }
    EXPECT_EQ(readAll(**source), readAll(**copy));
    ASSERT_EQ(a.annotations.size(), b.annotations.size());
    for (std::size_t i = 0; i < a.annotations.size(); ++i) {
        EXPECT_EQ(a.annotations[i].time, b.annotations[i].time);
        EXPECT_EQ(a.annotations[i].text, b.annotations[i].text);
        EXPECT_EQ(a.annotations[i].channel, b.annotations[i].channel);
    }
    // Every CRC of the new session is right.
    core::ReadControl strict;
    strict.verifyCrc = true;
    const std::size_t first[] = {0};
    EXPECT_TRUE(core::readRange(**copy, first, {b.start, b.end}, strict).ok());
}

INSTANTIATE_TEST_SUITE_P(Reference, RoundTrip, ::testing::ValuesIn(test::allMefCases()),
                         [](const auto& info) { return info.param.name; });

TEST(MefExport, BytesDoNotDependOnThreads)
{
    auto source = formats::mef3::openMef3((test::testdata() / "mef3/meflib/meflib_rto.mefd").string(), {});
    ASSERT_TRUE(source.ok());
    test::TempDir dir;
    MefExportOptions options;
    options.range = {(*source)->info().start, (*source)->info().end};
    fs::create_directories(dir.path() / "one");
    fs::create_directories(dir.path() / "three");
    ASSERT_TRUE(exportMef(**source, options, (dir.path() / "one/s.mefd").string(), {}).ok());
    decode::ThreadPool pool(3);
    core::ReadControl control;
    control.runner = &pool;
    ASSERT_TRUE(exportMef(**source, options, (dir.path() / "three/s.mefd").string(), control).ok());
    for (const char* f : {"LA1.timd/LA1-000000.segd/LA1-000000.tdat", "LA1.timd/LA1-000000.segd/LA1-000000.tidx",
                          "LA2.timd/LA2-000000.segd/LA2-000000.tmet"})
        EXPECT_EQ(test::readBytes(dir.path() / "one/s.mefd" / f), test::readBytes(dir.path() / "three/s.mefd" / f))
            << f;
}

TEST(MefExport, EncryptedOutputNeedsItsPasswords)
{
    auto source = formats::mef3::openMef3((test::testdata() / "mef3/legacy/with_annotations.mefd").string(), {});
    ASSERT_TRUE(source.ok());
    test::TempDir dir;
    const fs::path out = dir.path() / "enc.mefd";
    MefExportOptions options;
    options.range = {(*source)->info().start, (*source)->info().end};
    options.level1Password = "alpha";
    options.level2Password = "omega";
    ASSERT_TRUE(exportMef(**source, options, out.string(), {}).ok());
    EXPECT_EQ(formats::mef3::openMef3(out.string(), {}).error().code, core::ErrorCode::PasswordRequired);
    EXPECT_EQ(formats::mef3::openMef3(out.string(), {"gamma"}).error().code, core::ErrorCode::WrongPassword);
    auto level2 = formats::mef3::openMef3(out.string(), {"omega"});
    ASSERT_TRUE(level2.ok());
    EXPECT_EQ(readAll(**level2), readAll(**source));
    ASSERT_EQ((*level2)->info().annotations.size(), 2u);
    EXPECT_EQ((*level2)->info().annotations[0].text, "onset");
    auto level1 = formats::mef3::openMef3(out.string(), {"alpha"});
    ASSERT_TRUE(level1.ok());
    EXPECT_EQ((*level1)->accessLevel(), 1);
    EXPECT_EQ(readAll(**level1), readAll(**source));
}

TEST(MefExport, ExistingTargetIsRefusedAndCancelLeavesNothing)
{
    auto source = formats::mef3::openMef3((test::testdata() / "mef3/meflib/meflib_rto.mefd").string(), {});
    ASSERT_TRUE(source.ok());
    test::TempDir dir;
    MefExportOptions options;
    options.range = {(*source)->info().start, (*source)->info().end};
    fs::create_directories(dir.path() / "taken.mefd");
    const core::Status taken = exportMef(**source, options, (dir.path() / "taken.mefd").string(), {});
    ASSERT_FALSE(taken.ok());
    EXPECT_EQ(taken.error().message, "the output already exists; choose a new name");
    core::CancelToken cancel;
    cancel.cancel();
    core::ReadControl control;
    control.cancel = &cancel;
    const core::Status cancelled = exportMef(**source, options, (dir.path() / "c.mefd").string(), control);
    EXPECT_EQ(cancelled.error().code, core::ErrorCode::Cancelled);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1); // only taken.mefd
}

} // namespace
#ifndef _WIN32
// Channels are finished group by group: a session of more channels than the process may hold files open converts
// (36,424 MDF 4 channels failed at about 10,000 with "Too many open files" when every channel stayed open).
TEST(MefExport, MoreChannelsThanOpenFilesAllowed)
{
    test::MemoryRecording source;
    for (int c = 0; c < 300; ++c) source.addChannel("c" + std::to_string(c), 16.0, 1'000'000'000'000, 40, c + 1);
    source.description.start = 1'000'000'000'000;
    source.description.end = source.description.channels[0].end;
    rlimit before{};
    ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &before), 0);
    rlimit low = before;
    low.rlim_cur = 128; // 300 channels x 2 data files would need 600
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
    test::TempDir dir;
    MefExportOptions options;
    options.range = {source.description.start, source.description.end};
    const core::Status s = exportMef(source, options, (dir.path() / "many.mefd").string(), {});
    setrlimit(RLIMIT_NOFILE, &before);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    auto back = formats::mef3::openMef3((dir.path() / "many.mefd").string(), {});
    ASSERT_TRUE(back.ok()) << back.error().describe();
    ASSERT_EQ((*back)->info().channels.size(), 300u);
    const int last = (*back)->info().channelIndex("c299");
    ASSERT_GE(last, 0);
    std::vector<std::int32_t> counts(40);
    const core::RawSlice slice{static_cast<std::size_t>(last), 0, counts};
    ASSERT_TRUE((*back)->readRaw({&slice, 1}, {}).ok());
    EXPECT_EQ(counts, source.grids[299]);
}
#endif

} // namespace lv::convert
