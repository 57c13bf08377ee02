// Paging through an in-memory recording: visible blocks asked for and pinned, prefetch ahead in the direction of
// travel (hits counted), passed or jumped-over prefetch counted as waste, depth following the paging interval.
#include "cache/PageLoader.h"

#include "MemorySource.h"

#include <gtest/gtest.h>

namespace lv::cache {
namespace {
using namespace lv::cache::testing;

// Two channels at 1 kHz over the memory source's grid (every channel shows the same samples).
core::RecordingInfo infoFor(const MemorySource& source)
{
    core::RecordingInfo info;
    for (const char* name : {"a", "b"}) {
        core::ChannelInfo c;
        c.name = name;
        c.fs = 1000.0;
        c.start = 0;
        c.gridLength = static_cast<std::int64_t>(source.grid.size());
        c.end = c.grid().timeOf(c.gridLength);
        info.channels.push_back(c);
    }
    return info;
}

Page page(int index, core::Uutc lengthUs = 500'000) // 500 samples: five blocks per channel
{
    return {{0, 1}, {index * lengthUs, (index + 1) * lengthUs}};
}

struct Fixture {
    MemorySource source;
    core::RecordingInfo info;
    BlockCache cache{64 << 20};
    std::unique_ptr<BlockScheduler> scheduler;
    Fixture()
    {
        fill(source);
        info = infoFor(source);
        scheduler = std::make_unique<BlockScheduler>(ViewContext{&source, &cache, 1, nullptr}, 2);
    }
};

TEST(PageLoader, TheBlocksOfAPageAreThoseHoldingItsSamples)
{
    Fixture f;
    const auto blocks = PageLoader::blocksOf(f.source, f.info, {1}, {150'000, 250'000}); // samples [150, 250)
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[0].block, 1u);
    EXPECT_EQ(blocks[1].block, 2u);
    EXPECT_EQ(blocks[0].channel, 1u);
}

TEST(PageLoader, PagingForwardIsServedFromPrefetch)
{
    Fixture f;
    PageLoader loader(*f.scheduler, f.info, 1);
    for (int p = 0; p < 12; ++p) {
        loader.show(page(p), {});
        f.scheduler->waitIdle(); // a user who reads each page: prefetch completes in between
    }
    const PrefetchStats s = loader.stats();
    EXPECT_EQ(s.pages, 12u);
    EXPECT_EQ(s.jumps, 1u); // the first page
    const std::uint64_t firstPage = PageLoader::blocksOf(f.source, f.info, {0, 1}, page(0).range).size();
    EXPECT_EQ(s.readyBlocks, s.visibleBlocks - firstPage); // every page after the first was ready
    // Ready because prefetched, except a block a page shares with the page before (one per channel and turn).
    EXPECT_GE(s.prefetchHits, s.readyBlocks - 2 * 11);
    EXPECT_GT(s.prefetchHits, 0u);
    EXPECT_EQ(s.prefetchLate, 0u);
    EXPECT_EQ(s.wastedBlocks, 0u);
    // Blocks straddling page edges are shown twice but decoded once.
    EXPECT_EQ(f.cache.stats().misses, s.prefetchedBlocks + firstPage);
}

TEST(PageLoader, TurningBackAndJumpingCountTheUnusedPrefetchAsWaste)
{
    Fixture f;
    PageLoader loader(*f.scheduler, f.info, 1);
    for (int p : {10, 11, 12}) {
        loader.show(page(p), {});
        f.scheduler->waitIdle();
    }
    const std::uint64_t ahead = loader.stats().prefetchedBlocks - loader.stats().prefetchHits;
    EXPECT_GT(ahead, 0u);
    loader.show(page(11), {}); // back: what was fetched beyond page 12 is waste
    f.scheduler->waitIdle();
    EXPECT_EQ(loader.stats().wastedBlocks, ahead);
    loader.show(page(10), {}); // prefetched backwards when turning: a hit
    EXPECT_GT(loader.stats().prefetchHits, 0u);
    const auto before = loader.stats();
    loader.show(page(30), {}); // a jump: all pending prefetch is waste, nothing of it was shown
    const auto after = loader.stats();
    EXPECT_EQ(after.jumps, before.jumps + 1);
    EXPECT_GT(after.wastedBlocks, before.wastedBlocks);
    EXPECT_EQ(after.readyBlocks, before.readyBlocks);
    f.scheduler->waitIdle();
}

TEST(PageLoader, FastPagingOverSlowDecodesPrefetchesDeeper)
{
    Fixture f;
    f.source.onDecode = [](std::size_t, std::size_t) { std::this_thread::sleep_for(std::chrono::milliseconds(2)); };
    PageLoader loader(*f.scheduler, f.info, 1);
    loader.show(page(0), {});
    f.scheduler->waitIdle();
    EXPECT_EQ(loader.stats().pagesAhead, 1); // no paging interval measured yet
    for (int p = 1; p < 12; ++p) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        loader.show(page(p), {});
    }
    // A page is ~10 blocks x 2 ms over 2 threads = ~10 ms of decoding, pages turn every ~1 ms.
    EXPECT_GE(loader.stats().pagesAhead, 4);
    f.scheduler->waitIdle();
}

TEST(PageLoader, TheVisiblePageIsPinned)
{
    Fixture f;
    f.cache.setBudget(1); // nothing survives but pins
    PageLoader loader(*f.scheduler, f.info, 1);
    loader.setPrefetch(false);
    loader.show(page(3), {});
    f.scheduler->waitIdle();
    for (const BlockId& b : PageLoader::blocksOf(f.source, f.info, {0, 1}, page(3).range))
        EXPECT_NE(f.cache.peek({1, b.channel, b.block}), nullptr) << b.block;
    EXPECT_EQ(f.cache.peek({1, 0, 0}), nullptr);
}

} // namespace
} // namespace lv::cache
