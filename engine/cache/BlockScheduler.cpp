// Lanes as FIFO queues of (request, block) items; cancelled requests' items are skipped when popped.
#include "cache/BlockScheduler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <vector>

namespace lv::cache {

namespace {
constexpr auto kExport = static_cast<std::size_t>(Lane::Export);
}

struct BlockScheduler::Request {
    std::uint64_t id = 0;
    BlockRequest what;
    std::atomic<std::size_t> remaining{0};
    std::atomic<bool> cancelled{false};
    std::atomic<bool> finished{false};
    std::atomic<std::uint64_t> decoded{0};
    std::atomic<std::uint64_t> fromCache{0};
    std::mutex errorMutex;
    std::optional<core::Error> error;
};

BlockScheduler::BlockScheduler(ViewContext view, std::size_t threads, const std::function<void()>& threadStart,
                               const std::function<void()>& backgroundStart)
    : m_view(view)
{
    const bool ownExportWorker = static_cast<bool>(backgroundStart);
    for (std::size_t i = 0; i < std::max<std::size_t>(threads, 1); ++i)
        m_workers.emplace_back([this, threadStart, ownExportWorker] {
            if (threadStart) threadStart();
            workerLoop(false, ownExportWorker);
        });
    if (ownExportWorker)
        m_background = std::thread([this, threadStart, backgroundStart] {
            if (threadStart) threadStart();
            backgroundStart();
            workerLoop(true, true);
        });
}

BlockScheduler::~BlockScheduler()
{
    std::vector<std::shared_ptr<Request>> queued;
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        for (auto& [key, request] : m_current) queued.push_back(request);
        m_current.clear();
    }
    for (auto& r : queued) finish(*r, Outcome::Cancelled);
    m_wake.notify_all();
    for (std::thread& t : m_workers) t.join();
    if (m_background.joinable()) m_background.join();
}

void BlockScheduler::finish(Request& r, Outcome outcome)
{
    if (r.finished.exchange(true)) return;
    if (outcome == Outcome::Cancelled) r.cancelled = true;
    RequestResult result{r.id, outcome, std::nullopt, r.decoded.load(), r.fromCache.load()};
    {
        std::lock_guard lock(r.errorMutex);
        result.error = r.error;
    }
    if (r.what.done) r.what.done(result);
}

std::shared_ptr<BlockScheduler::Request> BlockScheduler::detachCurrent(std::uint64_t view, Lane lane)
{
    auto it = m_current.find({view, lane});
    if (it == m_current.end()) return nullptr;
    auto stale = std::move(it->second);
    m_current.erase(it);
    stale->cancelled = true; // its queued items are skipped from now on
    ++m_stats.cancelled;
    return stale;
}

std::uint64_t BlockScheduler::submit(BlockRequest what)
{
    auto r = std::make_shared<Request>();
    std::shared_ptr<Request> stale;
    bool allCached = true;
    for (const BlockId& b : what.blocks)
        allCached = allCached && m_view.cache->peek({m_view.recording, b.channel, b.block}) != nullptr;
    {
        std::lock_guard lock(m_mutex);
        r->id = m_nextId++;
        ++m_stats.requests;
        stale = detachCurrent(what.view, what.lane);
        r->remaining = what.blocks.size();
        r->what = std::move(what);
        if (allCached) {
            r->fromCache = r->what.blocks.size();
            m_stats.fromCache += r->what.blocks.size();
        } else {
            m_current[{r->what.view, r->what.lane}] = r;
            auto& lane = m_lanes[static_cast<std::size_t>(r->what.lane)];
            for (std::size_t i = 0; i < r->what.blocks.size(); ++i) lane.push_back({r, i});
        }
    }
    if (stale) finish(*stale, Outcome::Cancelled);
    if (allCached)
        finish(*r, Outcome::Done);
    else
        m_wake.notify_all();
    return r->id;
}

void BlockScheduler::cancel(std::uint64_t view, Lane lane)
{
    std::shared_ptr<Request> stale;
    {
        std::lock_guard lock(m_mutex);
        stale = detachCurrent(view, lane);
    }
    if (stale) finish(*stale, Outcome::Cancelled);
}

void BlockScheduler::cancelView(std::uint64_t view)
{
    for (std::size_t l = 0; l < kLaneCount; ++l) cancel(view, static_cast<Lane>(l));
}

void BlockScheduler::run(std::vector<Item>& batch)
{
    Request& r = *batch.front().request;
    const auto started = std::chrono::steady_clock::now();
    std::vector<BlockFetch> fetches;
    for (const Item& item : batch) {
        const BlockId b = r.what.blocks[item.index];
        if (!m_view.cache->peek({m_view.recording, b.channel, b.block})) fetches.push_back({b.channel, b.block});
    }
    fetchBlocks(m_view, fetches, r.what.keepInCache, {});
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started);
    const std::size_t cached = batch.size() - fetches.size();
    r.fromCache += cached;
    r.decoded += fetches.size();
    for (const BlockFetch& f : fetches) {
        if (f.result) continue;
        std::lock_guard lock(r.errorMutex);
        if (!r.error) r.error = f.result.error();
    }
    {
        std::lock_guard lock(m_mutex);
        m_stats.fromCache += cached;
        m_stats.decoded[static_cast<std::size_t>(r.what.lane)] += fetches.size();
        if (!fetches.empty()) m_stats.decodeMicroseconds += us.count();
    }
    if (r.remaining.fetch_sub(batch.size()) != batch.size()) return;
    {
        std::lock_guard lock(m_mutex);
        auto it = m_current.find({r.what.view, r.what.lane});
        if (it != m_current.end() && it->second.get() == &r) m_current.erase(it);
    }
    bool failed;
    {
        std::lock_guard lock(r.errorMutex);
        failed = r.error.has_value();
    }
    finish(r, failed ? Outcome::Failed : Outcome::Done);
}

void BlockScheduler::takeBatch(std::deque<Item>& lane, std::size_t workers, std::vector<Item>& batch)
{
    // The source's preferred batch, or this worker's even share of the request's queued blocks if smaller.
    const std::size_t most = std::max<std::size_t>(m_view.source->preferredBatch(), 1);
    const Request* request = lane.front().request.get();
    std::size_t run = 1;
    while (run < lane.size() && run < most * workers && lane[run].request.get() == request) ++run;
    const std::size_t take = std::min(most, (run + workers - 1) / workers);
    for (std::size_t k = 0; k < take; ++k) {
        batch.push_back(std::move(lane.front()));
        lane.pop_front();
    }
}

void BlockScheduler::workerLoop(bool background, bool exportApart)
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        std::vector<Item> batch;
        for (std::size_t l = background ? kExport : 0; l < (exportApart && !background ? kExport : kLaneCount); ++l) {
            auto& lane = m_lanes[l];
            while (!lane.empty() && lane.front().request->cancelled) lane.pop_front(), ++m_stats.dropped;
            if (!lane.empty()) {
                takeBatch(lane, background ? 1 : m_workers.size(), batch);
                break;
            }
        }
        if (batch.empty()) {
            if (m_busy == 0) m_idle.notify_all();
            if (m_stopping) return;
            m_wake.wait(lock);
            continue;
        }
        ++m_busy;
        lock.unlock();
        run(batch);
        batch.clear();
        lock.lock();
        --m_busy;
    }
}

void BlockScheduler::waitIdle()
{
    std::unique_lock lock(m_mutex);
    m_idle.wait(lock, [this] {
        if (m_busy) return false;
        for (auto& lane : m_lanes)
            for (const Item& i : lane)
                if (!i.request->cancelled) return false;
        return true;
    });
}

SchedulerStats BlockScheduler::stats() const
{
    std::lock_guard lock(m_mutex);
    return m_stats;
}

} // namespace lv::cache
