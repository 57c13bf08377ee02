// The scheduler: lanes served in priority order, stale requests cancelled at block granularity, one decode for
// blocks several requests want, errors and cached requests reported, the order of results, and the Export lane on
// a worker of its own.
#include "cache/BlockScheduler.h"

#include "MemorySource.h"

#include <condition_variable>
#include <future>
#include <gtest/gtest.h>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

namespace lv::cache {
namespace {
using namespace lv::cache::testing;

// Holds decodes until opened; logs the order in which blocks were decoded.
struct Gate {
    std::mutex mutex;
    std::condition_variable cv;
    bool open = false;
    int waiting = 0;
    std::vector<std::size_t> order;

    void pass(std::size_t block)
    {
        std::unique_lock lock(mutex);
        ++waiting;
        cv.notify_all();
        cv.wait(lock, [&] { return open; });
        order.push_back(block);
    }
    void waitForOne()
    {
        std::unique_lock lock(mutex);
        cv.wait(lock, [&] { return waiting > 0; });
    }
    void release()
    {
        std::lock_guard lock(mutex);
        open = true;
        cv.notify_all();
    }
};

std::vector<BlockId> blocks(std::uint64_t from, std::uint64_t to)
{
    std::vector<BlockId> out;
    for (std::uint64_t b = from; b < to; ++b) out.push_back({0, b});
    return out;
}

struct Results {
    std::mutex mutex;
    std::vector<RequestResult> all;
    std::function<void(const RequestResult&)> sink()
    {
        return [this](const RequestResult& r) {
            std::lock_guard lock(mutex);
            all.push_back(r);
        };
    }
    RequestResult of(std::uint64_t id)
    {
        std::lock_guard lock(mutex);
        for (const auto& r : all)
            if (r.id == id) return r;
        ADD_FAILURE() << "no result for request " << id;
        return {};
    }
};

// One worker whose decodes wait at a gate: requests queue up behind the first block.
struct Gated {
    MemorySource source;
    Gate gate;
    BlockCache cache{64 << 20};
    BlockScheduler scheduler{{&source, &cache, 1, nullptr}, 1};
    Gated()
    {
        fill(source);
        source.onDecode = [this](std::size_t, std::size_t b) { gate.pass(b); };
    }
};

TEST(BlockScheduler, ServesVisibleBeforeNearBeforeFarBeforeExport)
{
    Gated g;
    auto [gate, cache, scheduler] = std::tie(g.gate, g.cache, g.scheduler);
    Results results;
    scheduler.submit({8, Lane::Export, blocks(0, 1), true, results.sink()}); // occupies the one worker
    gate.waitForOne();
    const auto exportId = scheduler.submit({9, Lane::Export, blocks(100, 103), true, results.sink()});
    const auto farId = scheduler.submit({1, Lane::Far, blocks(60, 63), true, results.sink()});
    const auto nearId = scheduler.submit({1, Lane::Near, blocks(30, 33), true, results.sink()});
    const auto visibleId = scheduler.submit({1, Lane::Visible, blocks(10, 13), true, results.sink()});
    gate.release();
    scheduler.waitIdle();
    EXPECT_EQ(gate.order, (std::vector<std::size_t>{0, 10, 11, 12, 30, 31, 32, 60, 61, 62, 100, 101, 102}));
    for (auto id : {exportId, farId, nearId, visibleId}) {
        EXPECT_EQ(results.of(id).outcome, Outcome::Done);
        EXPECT_EQ(results.of(id).decoded, 3u);
    }
    EXPECT_EQ(scheduler.stats().decoded[static_cast<std::size_t>(Lane::Visible)], 3u);
}

TEST(BlockScheduler, ANewerRequestOfTheSameViewCancelsTheStaleOneBlockByBlock)
{
    Gated g;
    auto [gate, cache, scheduler] = std::tie(g.gate, g.cache, g.scheduler);
    Results results;
    const auto stale = scheduler.submit({1, Lane::Visible, blocks(0, 20), true, results.sink()});
    gate.waitForOne(); // block 0 is being decoded: it finishes, the other 19 never start
    const auto other = scheduler.submit({2, Lane::Visible, blocks(50, 52), true, results.sink()}); // another view
    const auto fresh = scheduler.submit({1, Lane::Visible, blocks(100, 104), true, results.sink()});
    EXPECT_EQ(results.of(stale).outcome, Outcome::Cancelled); // reported at once, before its blocks drain
    gate.release();
    scheduler.waitIdle();
    EXPECT_EQ(gate.order, (std::vector<std::size_t>{0, 50, 51, 100, 101, 102, 103}));
    EXPECT_EQ(results.of(other).outcome, Outcome::Done);
    EXPECT_EQ(results.of(fresh).outcome, Outcome::Done);
    EXPECT_EQ(scheduler.stats().dropped, 19u);
    EXPECT_EQ(scheduler.stats().cancelled, 1u);
    EXPECT_NE(cache.peek({1, 0, 0}), nullptr); // the block decoded when the request went stale is kept
}

TEST(BlockScheduler, ConcurrentRequestsForTheSameBlocksDecodeEachOnce)
{
    MemorySource source;
    fill(source);
    source.onDecode = [](std::size_t, std::size_t) { std::this_thread::sleep_for(std::chrono::microseconds(300)); };
    BlockCache cache(64 << 20);
    BlockScheduler scheduler({&source, &cache, 1, nullptr}, 4);
    Results results;
    for (std::uint64_t view = 1; view <= 6; ++view)
        scheduler.submit({view, view % 2 ? Lane::Visible : Lane::Export, blocks(0, 150), true, results.sink()});
    scheduler.waitIdle();
    EXPECT_EQ(source.decodes.load(), 150);
    EXPECT_EQ(cache.stats().misses, 150u);
    for (const auto& r : results.all) EXPECT_EQ(r.outcome, Outcome::Done);
}

// A source that decodes blocks together (as MEF does), logging each batch's size.
class BatchingSource final : public core::BlockSource {
public:
    MemorySource memory;
    mutable std::mutex mutex;
    mutable std::vector<std::size_t> sizes;

    std::span<const core::BlockSpan> blocks(std::size_t channel) const override { return memory.blocks(channel); }
    core::Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                             const core::ReadControl& control) const override
    {
        return memory.decodeBlock(channel, block, out, control);
    }
    void decodeBlocks(std::span<core::BlockDecode> batch, const core::ReadControl& control) const override
    {
        {
            std::lock_guard lock(mutex);
            sizes.push_back(batch.size());
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        BlockSource::decodeBlocks(batch, control);
    }
    std::size_t preferredBatch() const override { return 8; }
};

// Workers take their share of a request's blocks at once, up to the source's preferred batch, and decode them
// together: every block once though six views want the same ones, each cached with its own samples, and a failed
// block fails its request alone.
TEST(BlockScheduler, ABatchingSourceDecodesAWorkersShareOfARequestTogether)
{
    BatchingSource source;
    fill(source.memory);
    source.memory.failingBlock = 21;
    BlockCache cache(64 << 20);
    BlockScheduler scheduler({&source, &cache, 1, nullptr}, 2);
    Results results;
    const auto failing = scheduler.submit({1, Lane::Visible, blocks(0, 40), true, results.sink()});
    std::vector<std::uint64_t> others;
    for (std::uint64_t view = 2; view <= 7; ++view)
        others.push_back(scheduler.submit({view, Lane::Near, blocks(40, 190), true, results.sink()}));
    scheduler.waitIdle();
    EXPECT_EQ(results.of(failing).outcome, Outcome::Failed);
    ASSERT_TRUE(results.of(failing).error.has_value());
    EXPECT_EQ(results.of(failing).error->message, "block 21 is damaged");
    for (auto id : others) EXPECT_EQ(results.of(id).outcome, Outcome::Done);
    EXPECT_EQ(source.memory.decodes.load(), 190);
    std::size_t total = 0, largest = 0;
    for (std::size_t n : source.sizes) total += n, largest = std::max(largest, n);
    EXPECT_EQ(total, 190u);
    EXPECT_EQ(largest, 8u);
    for (std::uint64_t b = 0; b < 190; ++b) {
        const BlockData d = cache.peek({1, 0, b});
        if (b == 21) {
            EXPECT_EQ(d, nullptr);
            continue;
        }
        ASSERT_NE(d, nullptr) << b;
        const core::BlockSpan& s = source.memory.spans[b];
        ASSERT_TRUE(std::equal(d->begin(), d->end(), source.memory.grid.begin() + s.first)) << b;
    }
}

TEST(BlockScheduler, AFailedBlockFailsItsRequestWithTheBlocksError)
{
    MemorySource source;
    fill(source);
    source.failingBlock = 7;
    BlockCache cache(64 << 20);
    BlockScheduler scheduler({&source, &cache, 1, nullptr}, 2);
    std::promise<RequestResult> got;
    scheduler.submit({1, Lane::Visible, blocks(5, 10), true, [&](const RequestResult& r) { got.set_value(r); }});
    const RequestResult r = got.get_future().get();
    EXPECT_EQ(r.outcome, Outcome::Failed);
    ASSERT_TRUE(r.error.has_value());
    EXPECT_EQ(r.error->message, "block 7 is damaged");
    EXPECT_EQ(cache.peek({1, 0, 7}), nullptr); // failures are not cached
}

TEST(BlockScheduler, ARequestWhoseBlocksAreCachedIsAnsweredInsideSubmit)
{
    MemorySource source;
    fill(source);
    BlockCache cache(64 << 20);
    BlockScheduler scheduler({&source, &cache, 1, nullptr}, 1);
    scheduler.submit({1, Lane::Visible, blocks(0, 4), true, {}});
    scheduler.waitIdle();
    bool answered = false;
    scheduler.submit({1, Lane::Visible, blocks(0, 4), true, [&](const RequestResult& r) {
                          answered = r.outcome == Outcome::Done && r.fromCache == 4 && r.decoded == 0;
                      }});
    EXPECT_TRUE(answered);
    EXPECT_EQ(source.decodes.load(), 4);
}

TEST(BlockScheduler, UncachedRequestsOnlyFeedThePyramid)
{
    MemorySource source;
    fill(source);
    BlockCache cache(64 << 20);
    Pyramid pyramid(source, 1, 16);
    BlockScheduler scheduler({&source, &cache, 1, &pyramid}, 2);
    scheduler.submit({1, Lane::Export, blocks(0, 50), false, {}});
    scheduler.waitIdle();
    EXPECT_EQ(pyramid.builtBlocks(), 50u);
    EXPECT_EQ(cache.stats().entries, 0u);
}

// With a worker of its own for the Export lane (started by its hook), a bulk job held up there never delays a
// view's blocks, and no other worker takes the lane's blocks.
TEST(BlockScheduler, TheExportLaneHasAWorkerOfItsOwn)
{
    MemorySource source;
    fill(source);
    Gate gate;
    std::mutex mutex;
    std::map<std::size_t, std::thread::id> decodedOn;
    source.onDecode = [&](std::size_t, std::size_t b) {
        if (b >= 100) gate.pass(b); // the export blocks wait at the gate
        std::lock_guard lock(mutex);
        decodedOn[b] = std::this_thread::get_id();
    };
    std::thread::id background;
    BlockCache cache(64 << 20);
    BlockScheduler scheduler({&source, &cache, 1, nullptr}, 1, {}, [&] { background = std::this_thread::get_id(); });
    EXPECT_EQ(scheduler.threadCount(), 1u);
    Results results;
    const auto exportId = scheduler.submit({9, Lane::Export, blocks(100, 104), false, results.sink()});
    gate.waitForOne();
    std::promise<void> shown;
    scheduler.submit({1, Lane::Visible, blocks(10, 13), true, [&](const RequestResult&) { shown.set_value(); }});
    EXPECT_EQ(shown.get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready)
        << "the view's blocks waited behind the export";
    gate.release();
    scheduler.waitIdle();
    EXPECT_EQ(results.of(exportId).outcome, Outcome::Done);
    std::lock_guard lock(mutex);
    for (std::size_t b = 100; b < 104; ++b) EXPECT_EQ(decodedOn.at(b), background) << "export block " << b;
    for (std::size_t b = 10; b < 13; ++b) EXPECT_NE(decodedOn.at(b), background) << "view block " << b;
}

} // namespace
} // namespace lv::cache
