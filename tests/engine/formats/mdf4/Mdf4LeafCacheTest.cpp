// The cache of inflated DZ blocks under a one-pass forward read (ReadControl::forwardOnly, as exports read): the
// blocks behind the read are dropped, the values are those of any other read, and reading back still works.
#include "formats/mdf4/Mdf4Recording.h"
#include "formats/mdf4/Mdf4Writer.h"

#include "core/LittleEndian.h"
#include "decode/ThreadPool.h"
#include "support/RecordingReads.h"
#include "support/TestSupport.h"

#include <filesystem>
#include <gtest/gtest.h>

using namespace lv;
using namespace lv::formats::mdf4;

namespace {

constexpr std::size_t kRecords = 20'000;

// Two groups at 100 and 40 Hz, one int16 channel each, in transposed-deflate blocks of 4 KiB (54 each): 440 KB of
// inflated records in all.
std::string writeTwoGroups(const std::filesystem::path& folder)
{
    FileSpec spec;
    spec.startNs = std::uint64_t{1'700'000'000} * 1'000'000'000;
    spec.program = "test";
    spec.zipBytes = 4096;
    for (const char* name : {"fast", "slow"}) {
        GroupSpec group;
        group.acquisitionName = name;
        group.channels.push_back({name, "uV", "", ValueType::Int16, true, 0.5, 0.0});
        spec.groups.push_back(std::move(group));
    }
    const std::string path = (folder / "two.mf4").string();
    auto w = Mdf4Writer::create(path, spec);
    EXPECT_TRUE(w.ok());
    for (std::size_t g = 0; g < 2; ++g) {
        const RecordLayout& layout = (*w)->layout(g);
        const double fs = g == 0 ? 100.0 : 40.0;
        std::vector<std::uint8_t> bytes(kRecords * layout.recordBytes(), 0);
        for (std::size_t i = 0; i < kRecords; ++i) {
            std::uint8_t* record = &bytes[i * layout.recordBytes()];
            core::le::store<double>(record, static_cast<double>(i) / fs);
            core::le::store<std::int16_t>(record + layout.offsets[0],
                                          static_cast<std::int16_t>((i * (g + 3)) % 4001 - 2000));
        }
        EXPECT_TRUE((*w)->append(g, bytes).ok());
    }
    EXPECT_TRUE((*w)->commit().ok());
    return path;
}

// Both channels read forward in chunks of 700 samples; returns every count read and the most the cache held.
std::vector<std::vector<std::int32_t>> readForward(Mdf4Recording& r, const core::ReadControl& control,
                                                   std::uint64_t& mostCached)
{
    std::vector<std::vector<std::int32_t>> got(2);
    mostCached = 0;
    for (std::int64_t at = 0; at < static_cast<std::int64_t>(kRecords); at += 700) {
        const std::size_t n = std::min<std::size_t>(700, kRecords - static_cast<std::size_t>(at));
        std::vector<std::int32_t> a(n), b(n);
        const core::RawSlice slices[] = {{0, at, a}, {1, at, b}};
        EXPECT_TRUE(r.readRaw(slices, control).ok());
        got[0].insert(got[0].end(), a.begin(), a.end());
        got[1].insert(got[1].end(), b.begin(), b.end());
        mostCached = std::max(mostCached, r.cachedLeafBytes());
    }
    return got;
}

} // namespace

TEST(Mdf4LeafCache, AForwardReadDropsTheBlocksBehindItAndReadsTheSameValues)
{
    test::TempDir dir;
    const std::string path = writeTwoGroups(dir.path());
    decode::ThreadPool two(2);
    for (core::TaskRunner* runner : {static_cast<core::TaskRunner*>(nullptr), static_cast<core::TaskRunner*>(&two)}) {
        auto file = io::openFile(path);
        ASSERT_TRUE(file.ok());
        auto opened = openMdf4(*file, runner);
        ASSERT_TRUE(opened.ok()) << opened.error().describe();
        Mdf4Recording& r = **opened;
        ASSERT_EQ(r.info().channels.size(), 2u);
        const std::vector<std::int32_t> expected[] = {test::everyCount(r, 0), test::everyCount(r, 1)};
        ASSERT_EQ(expected[0].size(), kRecords);

        core::ReadControl keep;
        keep.runner = runner;
        std::uint64_t keptMost = 0;
        auto kept = readForward(r, keep, keptMost);
        EXPECT_EQ(kept[0], expected[0]);
        EXPECT_EQ(kept[1], expected[1]);
        EXPECT_GE(keptMost, std::uint64_t{150'000}); // without the hint the cache keeps (almost) every block

        auto again = openMdf4(*file, runner); // a fresh cache
        ASSERT_TRUE(again.ok());
        core::ReadControl forward = keep;
        forward.forwardOnly = true;
        std::uint64_t forwardMost = 0;
        auto streamed = readForward(**again, forward, forwardMost);
        EXPECT_EQ(streamed[0], expected[0]);
        EXPECT_EQ(streamed[1], expected[1]);
        // A chunk spans at most three 4 KiB blocks per group, and a block is read ahead of each on two threads.
        EXPECT_LE(forwardMost, std::uint64_t{8 * 4096}) << "on " << (runner ? 2 : 1) << " threads";
        EXPECT_LE((*again)->cachedLeafBytes(), std::uint64_t{2 * 4096}); // at the end: nothing behind is kept
        EXPECT_EQ(test::everyCount(**again, 0), expected[0]);            // reading back inflates them again
    }
}
