// Decode requests for viewing on a pool of worker threads: (channel, block) jobs served by priority lane
// (visible page, near prefetch, far prefetch, exports), each request with an id; a newer request of the same
// view and lane cancels the older one, whose blocks not yet started are dropped (block granularity).
#pragma once

#include "cache/ViewContext.h"

#include <array>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace lv::cache {

enum class Lane : std::uint8_t { Visible = 0, Near = 1, Far = 2, Export = 3 }; // served in this order
constexpr std::size_t kLaneCount = 4;

struct BlockId {
    std::uint32_t channel = 0;
    std::uint64_t block = 0;
};

enum class Outcome { Done, Failed, Cancelled };

struct RequestResult {
    std::uint64_t id = 0;
    Outcome outcome = Outcome::Done;
    std::optional<core::Error> error; // the first failed block's error, when Failed
    std::uint64_t decoded = 0;        // blocks this request decoded itself
    std::uint64_t fromCache = 0;      // blocks found cached (or decoded by a concurrent request)
};

struct BlockRequest {
    std::uint64_t view = 0; // who asks; a newer request of the same view and lane replaces this one
    Lane lane = Lane::Visible;
    std::vector<BlockId> blocks;
    bool keepInCache = true; // false: decoded blocks only feed the pyramid (pyramid builds, scans)
    // Called once: on a worker thread, or inside submit() when every block is already cached, or inside the
    // submit()/cancel() that cancels the request. Must be quick (post the result to its thread).
    std::function<void(const RequestResult&)> done;
};

struct SchedulerStats {
    std::array<std::uint64_t, kLaneCount> decoded{}; // blocks decoded per lane
    std::uint64_t fromCache = 0;
    std::uint64_t dropped = 0; // queued blocks skipped because their request was cancelled
    std::uint64_t requests = 0;
    std::uint64_t cancelled = 0;
    std::uint64_t decodeMicroseconds = 0; // worker time spent in decodes
};

class BlockScheduler {
public:
    // `threadStart`, when set, runs first on each worker thread (e.g. to lower its priority below a UI thread's).
    // `backgroundStart`, when set, gives the Export lane a worker of its own that runs it first (e.g. to lower itself
    // further): the other workers then leave that lane to it, so a bulk job never takes a core from the views.
    BlockScheduler(ViewContext view, std::size_t threads, const std::function<void()>& threadStart = {},
                   const std::function<void()>& backgroundStart = {});
    ~BlockScheduler(); // cancels what is queued, waits for the blocks being decoded
    BlockScheduler(const BlockScheduler&) = delete;
    BlockScheduler& operator=(const BlockScheduler&) = delete;

    std::uint64_t submit(BlockRequest request); // the request's id (increasing)
    void cancel(std::uint64_t view, Lane lane);
    void cancelView(std::uint64_t view); // every lane
    void waitIdle();                     // until no block is queued or being decoded
    SchedulerStats stats() const;
    const ViewContext& view() const { return m_view; }
    std::size_t threadCount() const { return m_workers.size(); } // not counting the Export lane's own worker

private:
    struct Request;
    struct Item {
        std::shared_ptr<Request> request;
        std::size_t index = 0;
    };
    // background: the Export lane's own worker, which serves that lane alone; exportApart: that worker exists, and
    // the others leave the lane to it.
    void workerLoop(bool background, bool exportApart);
    // Moves the run of one request's items at the lane's front to `batch`: this worker's share of them, at most
    // the source's preferred batch (m_mutex held).
    void takeBatch(std::deque<Item>& lane, std::size_t workers, std::vector<Item>& batch);
    void run(std::vector<Item>& batch);
    std::shared_ptr<Request> detachCurrent(std::uint64_t view, Lane lane); // m_mutex held
    void finish(Request& request, Outcome outcome);

    ViewContext m_view;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_idle;
    std::array<std::deque<Item>, kLaneCount> m_lanes;
    std::map<std::pair<std::uint64_t, Lane>, std::shared_ptr<Request>> m_current;
    std::uint64_t m_nextId = 1;
    std::size_t m_busy = 0;
    bool m_stopping = false;
    SchedulerStats m_stats;
    std::vector<std::thread> m_workers;
    std::thread m_background; // joinable when the Export lane has a worker of its own
};

} // namespace lv::cache
