// Chunk extrema equal the least and greatest physical value of each chunk computed by hand (the float at or outside
// the true range), NaN for a chunk without samples, across read windows and a short last chunk; cancelled in words.
#include "analysis/ChunkExtrema.h"

#include "support/MemoryRecording.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>

using namespace lv;

namespace {

// "a": 1,000 random counts, step 0.37 uV, offset -12.5, missing in [300, 420); "b": 700 counts of factor -0.5.
std::unique_ptr<test::MemoryRecording> twoChannels()
{
    auto r = std::make_unique<test::MemoryRecording>();
    r->addChannel("a", 256, 1'000'000, 1000, 1, 300, 420);
    r->addChannel("b", 256, 1'000'000, 700);
    r->description.channels[0].conversionFactor = 0.37;
    r->description.channels[0].offset = -12.5;
    r->description.channels[1].conversionFactor = -0.5;
    std::mt19937 random(7);
    std::uniform_int_distribution<std::int32_t> counts(-40000, 40000);
    for (std::int32_t& c : r->grids[0])
        if (c != core::kNoSample) c = counts(random);
    return r;
}

} // namespace

TEST(ChunkExtrema, EachChunkHoldsItsLeastAndGreatestValue)
{
    auto r = twoChannels();
    const std::vector<std::size_t> channels = {1, 0};
    auto got = analysis::chunkExtrema(*r, channels, 64, {}, 3); // windows of 192 samples
    ASSERT_TRUE(got.ok()) << got.error().describe();
    EXPECT_EQ(got->chunk, 64);
    ASSERT_EQ(got->channels.size(), 2u);
    for (std::size_t k = 0; k < channels.size(); ++k) {
        const core::ChannelInfo& ch = r->info().channels[channels[k]];
        const std::vector<std::int32_t>& grid = r->grids[channels[k]];
        ASSERT_EQ(got->channels[k].size(), (grid.size() + 63) / 64) << ch.name;
        for (std::size_t c = 0; c < got->channels[k].size(); ++c) {
            double lo = INFINITY, hi = -INFINITY;
            for (std::size_t i = c * 64; i < std::min(grid.size(), (c + 1) * 64); ++i)
                if (grid[i] != core::kNoSample) {
                    const double v = grid[i] * ch.conversionFactor + ch.offset;
                    lo = std::min(lo, v), hi = std::max(hi, v);
                }
            const auto [flo, fhi] = got->channels[k][c];
            if (lo > hi) {
                EXPECT_TRUE(std::isnan(flo) && std::isnan(fhi)) << ch.name << " chunk " << c;
                continue;
            }
            const float nearLo = static_cast<float>(lo), nearHi = static_cast<float>(hi);
            EXPECT_EQ(flo, static_cast<double>(nearLo) <= lo ? nearLo : std::nextafter(nearLo, -INFINITY))
                << ch.name << " chunk " << c; // the float at or just below the least value
            EXPECT_EQ(fhi, static_cast<double>(nearHi) >= hi ? nearHi : std::nextafter(nearHi, INFINITY))
                << ch.name << " chunk " << c;
        }
    }
    EXPECT_TRUE(std::isnan(got->channels[1][5].first)); // [320, 384) lies in the gap [300, 420)
}

TEST(ChunkExtrema, ReportsProgressAndStopsWhenCancelled)
{
    auto r = twoChannels();
    std::uint64_t last = 0, all = 0;
    core::ReadControl control;
    control.progress = [&](std::uint64_t done, std::uint64_t total) { last = done, all = total; };
    const std::vector<std::size_t> channels = {0, 1};
    ASSERT_TRUE(analysis::chunkExtrema(*r, channels, 100, control).ok());
    EXPECT_EQ(last, 1700u);
    EXPECT_EQ(all, 1700u);
    core::CancelToken cancel;
    cancel.cancel();
    control.cancel = &cancel;
    auto stopped = analysis::chunkExtrema(*r, channels, 100, control);
    ASSERT_FALSE(stopped.ok());
    EXPECT_EQ(stopped.error().code, core::ErrorCode::Cancelled);
    EXPECT_EQ(stopped.error().message, "chunk extrema cancelled");
}
