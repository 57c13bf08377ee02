// Reads are bit-identical for 1, 2 and 8 threads, honour windows inside blocks, outlive no recording, can be cancelled.
#include "support/TestSupport.h"

#include "core/Recording.h"
#include "decode/ThreadPool.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/SessionWriter.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

std::string session() { return (test::testdata() / "mef3/meflib/meflib_rto.mefd").string(); }

std::vector<core::ChannelSamples> readAll(core::Recording& r, core::TaskRunner* runner, core::TimeRange range)
{
    const std::size_t channels[] = {0, 1};
    core::ReadControl control;
    control.runner = runner;
    auto got = core::readRange(r, channels, range, control);
    EXPECT_TRUE(got.ok());
    return got.ok() ? *got : std::vector<core::ChannelSamples>{};
}

TEST(ParallelRead, IdenticalForAnyThreadCount)
{
    auto r = openMef3(session(), {});
    ASSERT_TRUE(r.ok());
    const core::TimeRange all{(*r)->info().start, (*r)->info().end};
    const auto one = readAll(**r, nullptr, all);
    for (std::size_t threads : {1u, 2u, 8u}) {
        decode::ThreadPool pool(threads);
        const auto many = readAll(**r, &pool, all);
        ASSERT_EQ(many.size(), one.size());
        for (std::size_t c = 0; c < one.size(); ++c) EXPECT_EQ(many[c].raw, one[c].raw) << threads << " threads";
    }
}

TEST(ParallelRead, WindowsMatchTheWholeRead)
{
    auto r = openMef3(session(), {});
    ASSERT_TRUE(r.ok());
    const core::RecordingInfo& info = (*r)->info();
    const auto whole = readAll(**r, nullptr, {info.start, info.end});
    decode::ThreadPool pool(2);
    // Windows that start and end inside blocks and inside the gap.
    for (auto [from, to] :
         {std::pair{1.3, 2.9}, std::pair{95.0, 131.7}, std::pair{0.0, 300.0}, std::pair{299.99, 400.0}}) {
        const core::TimeRange range{info.start + static_cast<core::Uutc>(from * 1e6),
                                    info.start + static_cast<core::Uutc>(to * 1e6)};
        const auto part = readAll(**r, &pool, range);
        for (std::size_t c = 0; c < part.size(); ++c) {
            const auto& w = whole[c].raw;
            ASSERT_LE(part[c].firstSample + static_cast<std::int64_t>(part[c].raw.size()),
                      static_cast<std::int64_t>(w.size()));
            const std::vector<std::int32_t> expected(w.begin() + part[c].firstSample,
                                                     w.begin() + part[c].firstSample +
                                                         static_cast<std::ptrdiff_t>(part[c].raw.size()));
            EXPECT_EQ(part[c].raw, expected) << from << ".." << to;
        }
    }
}

// A read's helpers may still be decoding a job the caller finished for them when the read returns; closing the
// recording then waits for them (ASan reports a use after free when it does not). 4 channels x 40 min in 1 s
// blocks: 152 jobs a read, on 4 threads sharing the cores.
TEST(ParallelRead, ARecordingClosedRightAfterAReadWaitsForItsHelpers)
{
    test::TempDir dir;
    const std::string path = (dir.path() / "s.mefd").string();
    WriterOptions options;
    options.blockSeconds = 1.0;
    {
        auto w = SessionWriter::create(path, options);
        ASSERT_TRUE(w.ok());
        for (std::size_t c = 0; c < 4; ++c) {
            ASSERT_TRUE((*w)->addChannel({"c" + std::to_string(c), 256.0, "uV", 1.0, ""}).ok());
            std::vector<std::int32_t> samples(256 * 60 * 40);
            for (std::size_t i = 0; i < samples.size(); ++i)
                samples[i] = static_cast<std::int32_t>((i * 7919 + c * 104729) % 2001) - 1000;
            ASSERT_TRUE((*w)->append(c, {1'600'000'000'000'000, 256.0}, 0, samples).ok());
        }
        ASSERT_TRUE((*w)->finish().ok());
    }
    std::vector<core::ChannelSamples> first;
    decode::ThreadPool pool(4);
    for (int round = 0; round < 20; ++round) {
        auto r = openMef3(path, {});
        ASSERT_TRUE(r.ok());
        const std::size_t channels[] = {0, 1, 2, 3};
        core::ReadControl control;
        control.runner = &pool;
        auto got = core::readRange(**r, channels, {(*r)->info().start, (*r)->info().end}, control);
        r->reset();
        ASSERT_TRUE(got.ok());
        if (round == 0) first = *got;
        ASSERT_EQ(got->size(), 4u);
        for (std::size_t c = 0; c < 4; ++c) ASSERT_EQ((*got)[c].raw, first[c].raw) << round;
    }
    EXPECT_EQ(first[3].raw.size(), 256u * 60 * 40);
    EXPECT_EQ(first[3].raw[5], static_cast<std::int32_t>((5 * 7919 + 3 * 104729) % 2001) - 1000);
}

TEST(ParallelRead, CancelledReadSaysSo)
{
    auto r = openMef3(session(), {});
    ASSERT_TRUE(r.ok());
    core::CancelToken cancel;
    cancel.cancel();
    core::ReadControl control;
    control.cancel = &cancel;
    const std::size_t channels[] = {0};
    auto got = core::readRange(**r, channels, {(*r)->info().start, (*r)->info().end}, control);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().code, core::ErrorCode::Cancelled);
}

TEST(ParallelRead, ProgressReachesTheTotal)
{
    auto r = openMef3(session(), {});
    ASSERT_TRUE(r.ok());
    std::atomic<std::uint64_t> last{0}, total{0};
    core::ReadControl control;
    control.progress = [&](std::uint64_t done, std::uint64_t all) {
        last = std::max<std::uint64_t>(last, done), total = all;
    };
    const std::size_t channels[] = {0, 1};
    ASSERT_TRUE(core::readRange(**r, channels, {(*r)->info().start, (*r)->info().end}, control).ok());
    EXPECT_EQ(last.load(), total.load());
    EXPECT_EQ(total.load(),
              static_cast<std::uint64_t>((*r)->info().channels[0].sampleCount + (*r)->info().channels[1].sampleCount));
}

} // namespace
} // namespace lv::formats::mef3
