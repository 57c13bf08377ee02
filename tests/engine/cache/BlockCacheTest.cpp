// The block cache: LRU eviction within the byte budget, pinning, one decode for concurrent requests, errors not
// cached, forgetting a recording, memory reserved outside the cache (pyramids) and blocks being decoded counted
// in the budget.
#include "cache/BlockCache.h"

#include <atomic>
#include <chrono>
#include <future>
#include <gtest/gtest.h>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

namespace lv::cache {
namespace {

constexpr std::size_t kSamples = 1000;
const std::size_t kEntryBytes = BlockMemory::footprint(kSamples * 4) + BlockCache::kEntryOverhead;

BlockCache::Decoder filled(std::int32_t value, std::atomic<int>* calls = nullptr)
{
    return [=]() -> core::Result<BlockSamples> {
        if (calls) ++*calls;
        return BlockSamples(kSamples, value);
    };
}

TEST(BlockCache, EvictsTheLeastRecentlyUsedBlockBeyondTheBudget)
{
    BlockCache cache(3 * kEntryBytes);
    for (std::uint64_t b : {1, 2, 3}) ASSERT_TRUE(cache.get({7, 0, b}, filled(static_cast<std::int32_t>(b))).ok());
    ASSERT_TRUE(cache.get({7, 0, 1}, filled(-1)).ok()); // a hit: block 1 becomes the most recent
    ASSERT_TRUE(cache.get({7, 0, 4}, filled(4)).ok());
    EXPECT_EQ(cache.peek({7, 0, 2}), nullptr);
    ASSERT_NE(cache.peek({7, 0, 1}), nullptr);
    EXPECT_EQ(cache.peek({7, 0, 1})->front(), 1); // the hit did not decode again
    const CacheStats s = cache.stats();
    EXPECT_EQ(s.misses, 4u);
    EXPECT_EQ(s.evictions, 1u);
    EXPECT_EQ(s.entries, 3u);
    EXPECT_EQ(s.bytes, 3 * kEntryBytes);
}

TEST(BlockCache, PinnedBlocksStayEvenOverBudget)
{
    BlockCache cache(2 * kEntryBytes);
    cache.pin(7, {{0, 10, 13}});
    for (std::uint64_t b : {10, 11, 12, 20, 21}) ASSERT_TRUE(cache.get({7, 0, b}, filled(1)).ok());
    for (std::uint64_t b : {10, 11, 12}) EXPECT_NE(cache.peek({7, 0, b}), nullptr) << b;
    EXPECT_EQ(cache.peek({7, 0, 20}), nullptr);
    EXPECT_EQ(cache.stats().entries, 3u); // over budget only by the pinned blocks
    cache.pin(7, {});                     // unpinned: the budget applies again
    EXPECT_EQ(cache.stats().entries, 2u);
}

TEST(BlockCache, ConcurrentRequestsForOneBlockShareOneDecode)
{
    BlockCache cache(100 * kEntryBytes);
    std::atomic<int> calls{0};
    std::atomic<bool> go{false};
    auto slow = [&]() -> core::Result<BlockSamples> {
        ++calls;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        return BlockSamples(kSamples, 5);
    };
    std::vector<BlockData> got(8);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < got.size(); ++t)
        threads.emplace_back([&, t] {
            while (!go) std::this_thread::yield();
            auto r = cache.get({1, 2, 3}, slow);
            if (r) got[t] = *r;
        });
    go = true;
    for (auto& t : threads) t.join();
    EXPECT_EQ(calls.load(), 1);
    for (const BlockData& d : got) EXPECT_EQ(d, got.front());
    const CacheStats s = cache.stats();
    EXPECT_EQ(s.misses, 1u);
    EXPECT_EQ(s.sharedWaits + s.hits, 7u);
}

TEST(BlockCache, FailedDecodesAreReturnedNotCached)
{
    BlockCache cache(10 * kEntryBytes);
    std::atomic<int> calls{0};
    auto failing = [&]() -> core::Result<BlockSamples> {
        ++calls;
        return core::makeError(core::ErrorCode::CrcMismatch, "block CRC mismatch", "x.tdat", 1024);
    };
    auto first = cache.get({1, 0, 0}, failing);
    ASSERT_FALSE(first.ok());
    EXPECT_EQ(first.error().describe(), "x.tdat: block CRC mismatch (at byte 1024)");
    EXPECT_FALSE(cache.get({1, 0, 0}, failing).ok());
    EXPECT_EQ(calls.load(), 2);
    EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(BlockCache, ForgettingARecordingDropsOnlyItsBlocks)
{
    BlockCache cache(10 * kEntryBytes);
    ASSERT_TRUE(cache.get({1, 0, 0}, filled(1)).ok());
    ASSERT_TRUE(cache.get({2, 0, 0}, filled(2)).ok());
    cache.forget(1);
    EXPECT_EQ(cache.peek({1, 0, 0}), nullptr);
    EXPECT_NE(cache.peek({2, 0, 0}), nullptr);
    EXPECT_EQ(cache.stats().bytes, kEntryBytes);
}

TEST(BlockCache, ReservedBytesCountInTheBudgetUpToHalfOfIt)
{
    BlockCache cache(4 * kEntryBytes);
    for (std::uint64_t b : {1, 2, 3, 4}) ASSERT_TRUE(cache.get({7, 0, b}, filled(1)).ok());
    EXPECT_TRUE(cache.reserve(7, kEntryBytes)); // room is made: the oldest block goes
    EXPECT_EQ(cache.peek({7, 0, 1}), nullptr);
    EXPECT_EQ(cache.stats().entries, 3u);
    EXPECT_TRUE(cache.reserve(8, kEntryBytes)); // reservations of every owner share half the budget
    EXPECT_FALSE(cache.reserve(7, 1));
    EXPECT_EQ(cache.stats().entries, 2u);
    EXPECT_LE(cache.stats().bytes + cache.stats().reserved, cache.budget());
    EXPECT_TRUE(cache.reserve(7, 10, true)); // forced: counted even past half the budget
    EXPECT_EQ(cache.stats().reserved, 2 * kEntryBytes + 10);
    EXPECT_EQ(cache.stats().entries, 1u);
    cache.release(8);
    EXPECT_EQ(cache.stats().reserved, kEntryBytes + 10);
    cache.forget(7); // a closed recording's reservation goes with its blocks
    EXPECT_EQ(cache.stats().reserved, 0u);
    EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(BlockCache, ABlockBeingDecodedCountsInTheBudget)
{
    BlockCache cache(2 * kEntryBytes);
    for (std::uint64_t b : {1, 2}) ASSERT_TRUE(cache.get({7, 0, b}, filled(1)).ok());
    std::promise<void> started, release;
    std::shared_future<void> gate = release.get_future().share();
    std::thread decoder([&] {
        auto slow = [&]() -> core::Result<BlockSamples> {
            started.set_value();
            gate.wait();
            return BlockSamples(kSamples, 3);
        };
        EXPECT_TRUE(cache.get({7, 0, 3}, slow, kSamples).ok());
    });
    started.get_future().wait();
    EXPECT_EQ(cache.stats().inFlight, kEntryBytes);
    EXPECT_EQ(cache.stats().entries, 1u); // room was made before decoding
    EXPECT_EQ(cache.peek({7, 0, 1}), nullptr);
    release.set_value();
    decoder.join();
    EXPECT_EQ(cache.stats().inFlight, 0u);
    EXPECT_EQ(cache.stats().entries, 2u);
    EXPECT_LE(cache.stats().bytes, cache.budget());
}

// getMany: a cached key is a hit, a key another caller is decoding is waited for (after this call's own decodes
// are entered), the rest are decoded by one call of the batch decoder with their indices; a failed one is returned
// and not cached, the others are.
TEST(BlockCache, ManyKeysDecodeTheMissingOnesInOneBatchAndShareOthersDecodes)
{
    BlockCache cache(100 * kEntryBytes);
    ASSERT_TRUE(cache.get({1, 0, 0}, filled(10)).ok());
    std::promise<void> started, release;
    std::shared_future<void> gate = release.get_future().share();
    std::thread other([&] {
        auto slow = [&]() -> core::Result<BlockSamples> {
            started.set_value();
            gate.wait();
            return BlockSamples(kSamples, 12);
        };
        EXPECT_TRUE(cache.get({1, 0, 2}, slow).ok());
    });
    started.get_future().wait(); // key 2 is in flight in the other thread
    std::vector<std::vector<std::size_t>> calls;
    auto batch = [&](std::span<const std::size_t> which) {
        calls.emplace_back(which.begin(), which.end());
        release.set_value(); // the other decode may finish while ours runs
        std::vector<core::Result<BlockSamples>> out;
        for (std::size_t i : which)
            out.push_back(i == 3
                              ? core::Result<BlockSamples>(core::makeError(core::ErrorCode::Corrupt, "bad block 3"))
                              : core::Result<BlockSamples>(BlockSamples(kSamples, static_cast<std::int32_t>(10 + i))));
        return out;
    };
    const BlockKey keys[] = {{1, 0, 0}, {1, 0, 1}, {1, 0, 2}, {1, 0, 3}, {1, 0, 4}};
    const std::size_t expected[] = {kSamples, kSamples, kSamples, kSamples, kSamples};
    auto got = cache.getMany(keys, batch, expected);
    other.join();
    ASSERT_EQ(calls, (std::vector<std::vector<std::size_t>>{{1, 3, 4}}));
    ASSERT_EQ(got.size(), 5u);
    for (std::size_t i : {0u, 1u, 2u, 4u}) {
        ASSERT_TRUE(got[i].ok()) << i;
        EXPECT_EQ((*got[i])->front(), static_cast<std::int32_t>(10 + i)) << i;
        EXPECT_EQ(cache.peek(keys[i]), *got[i]) << i;
    }
    ASSERT_FALSE(got[3].ok());
    EXPECT_EQ(got[3].error().message, "bad block 3");
    EXPECT_EQ(cache.peek(keys[3]), nullptr);
    const CacheStats s = cache.stats();
    EXPECT_EQ(s.misses, 5u); // keys 0 and 2 by get, 1, 3 and 4 by getMany
    EXPECT_EQ(s.sharedWaits, 1u);
    EXPECT_EQ(s.inFlight, 0u);
}

// A batch decoder that throws fails its keys, and callers waiting for one of them get the failure, not a hang.
TEST(BlockCache, AThrowingBatchFailsItsKeysAndReleasesTheirWaiters)
{
    BlockCache cache(100 * kEntryBytes);
    std::promise<void> inside, waiterQueued;
    std::shared_future<void> queued = waiterQueued.get_future().share();
    auto throwing = [&](std::span<const std::size_t>) -> std::vector<core::Result<BlockSamples>> {
        inside.set_value();
        queued.wait();
        throw std::runtime_error("out of memory");
    };
    const BlockKey keys[] = {{1, 0, 0}, {1, 0, 1}};
    const std::size_t expected[] = {0, 0};
    std::vector<core::Result<BlockData>> got;
    std::thread batch([&] { got = cache.getMany(keys, throwing, expected); });
    inside.get_future().wait();
    std::thread waiter([&] {
        auto r = cache.get({1, 0, 1}, filled(1));
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.error().message, "decoding failed: out of memory");
    });
    while (cache.stats().sharedWaits == 0) std::this_thread::yield();
    waiterQueued.set_value();
    batch.join();
    waiter.join();
    ASSERT_EQ(got.size(), 2u);
    for (const auto& r : got) EXPECT_EQ(r.error().message, "decoding failed: out of memory");
    EXPECT_EQ(cache.stats().entries, 0u);
}

} // namespace
} // namespace lv::cache
