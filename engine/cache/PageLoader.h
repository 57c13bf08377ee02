// The pages a view shows: the visible blocks asked for first (and pinned in the cache), then prefetch in the
// direction of travel, as deep as the measured decode time and the user's paging interval need; dropped on a
// jump. Counts prefetch hits and waste. Used from one thread (the view's); results arrive through callbacks.
#pragma once

#include "cache/BlockScheduler.h"
#include "core/RecordingInfo.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <vector>

namespace lv::cache {

struct Page {
    std::vector<std::size_t> channels;
    core::TimeRange range; // [start, end) in uUTC
};

struct PrefetchStats {
    std::uint64_t pages = 0;
    std::uint64_t jumps = 0;
    std::uint64_t visibleBlocks = 0;    // blocks the shown pages needed
    std::uint64_t readyBlocks = 0;      // of those, already cached when the page was asked for
    std::uint64_t prefetchHits = 0;     // of those, cached because prefetch asked for them
    std::uint64_t prefetchLate = 0;     // asked for by prefetch but not decoded yet when needed
    std::uint64_t prefetchedBlocks = 0; // distinct blocks prefetch asked for
    std::uint64_t wastedBlocks = 0;     // prefetched, then passed, turned away from or jumped over unused
    int pagesAhead = 0;                 // the current prefetch depth
};

class PageLoader {
public:
    PageLoader(BlockScheduler& scheduler, const core::RecordingInfo& info, std::uint64_t view, int maxPagesAhead = 8);

    // Asks for the page's blocks (lane Visible; `done` as in BlockRequest), pins them, then prefetches.
    std::uint64_t show(const Page& page, std::function<void(const RequestResult&)> done);
    void setPrefetch(bool on) { m_prefetch = on; }
    PrefetchStats stats() const { return m_stats; }

    // The blocks holding samples of `range` in `channels` (irregular channels' from their `times`; none without).
    static std::vector<BlockId> blocksOf(const core::BlockSource& source, const core::RecordingInfo& info,
                                         const std::vector<std::size_t>& channels, core::TimeRange range,
                                         core::Recording* times = nullptr);

private:
    using Key = std::pair<std::uint32_t, std::uint64_t>;
    bool isJump(const Page& page) const;
    void account(const std::vector<BlockId>& visible);
    void dropPassed(const Page& page, int direction);
    void prefetch(const Page& page, int direction);
    int depth(std::size_t pageBlocks) const;
    core::TimeRange blockTimes(std::size_t channel, const core::BlockSpan& span) const; // its samples' times

    BlockScheduler& m_scheduler;
    const core::RecordingInfo& m_info;
    std::uint64_t m_view;
    int m_maxAhead;
    bool m_prefetch = true;
    std::optional<Page> m_last;
    int m_direction = 1;
    double m_intervalMs = 0.0; // smoothed time between page turns
    std::chrono::steady_clock::time_point m_lastTime;
    std::map<Key, core::Uutc> m_pending; // prefetched, not shown yet: block -> its end time
    PrefetchStats m_stats;
};

} // namespace lv::cache
