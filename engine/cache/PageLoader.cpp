// Page requests, travel direction and paging interval, prefetch depth, hit and waste accounting.
#include "cache/PageLoader.h"

#include "cache/SampleTimes.h"

#include <algorithm>
#include <cmath>

namespace lv::cache {

namespace {

core::TimeRange shifted(const core::TimeRange& r, std::int64_t pages)
{
    const core::Uutc length = r.end - r.start;
    return {r.start + pages * length, r.end + pages * length};
}

} // namespace

PageLoader::PageLoader(BlockScheduler& scheduler, const core::RecordingInfo& info, std::uint64_t view,
                       int maxPagesAhead)
    : m_scheduler(scheduler)
    , m_info(info)
    , m_view(view)
    , m_maxAhead(std::max(maxPagesAhead, 1))
{}

std::vector<BlockId> PageLoader::blocksOf(const core::BlockSource& source, const core::RecordingInfo& info,
                                          const std::vector<std::size_t>& channels, core::TimeRange range,
                                          core::Recording* times)
{
    std::vector<BlockId> out;
    for (std::size_t c : channels) {
        std::int64_t from = 0, to = 0;
        if (info.channels.at(c).irregular) { // its samples from its times (none without them)
            const auto span = samplesOf(times, info.channels[c], c, range);
            if (!span) continue;
            from = span->first;
            to = span->first + span->count;
        } else {
            const core::SampleGrid grid = info.channels[c].grid();
            from = grid.firstIndexAtOrAfter(range.start);
            to = grid.firstIndexAtOrAfter(range.end);
        }
        if (from >= to) continue;
        const BlockIndexRange blocks = blocksCovering(source, c, from, to);
        for (std::size_t j = blocks.first; j < blocks.end; ++j) out.push_back({static_cast<std::uint32_t>(c), j});
    }
    return out;
}

core::TimeRange PageLoader::blockTimes(std::size_t channel, const core::BlockSpan& span) const
{
    const core::ChannelInfo& ch = m_info.channels[channel];
    const auto times = timeSpanOf(m_scheduler.view().times, ch, channel, span.first, span.first + span.count);
    return times ? *times : core::TimeRange{ch.start, ch.end}; // no times: the whole channel (never passed early)
}

// A move by more than two pages, a new page length or other channels: not paging.
bool PageLoader::isJump(const Page& page) const
{
    if (!m_last || m_last->channels != page.channels) return true;
    const core::Uutc length = page.range.end - page.range.start;
    if (length != m_last->range.end - m_last->range.start) return true;
    return std::llabs(page.range.start - m_last->range.start) > 2 * length;
}

void PageLoader::account(const std::vector<BlockId>& visible)
{
    BlockCache& cache = *m_scheduler.view().cache;
    for (const BlockId& b : visible) {
        const bool ready = cache.peek({m_scheduler.view().recording, b.channel, b.block}) != nullptr;
        ++m_stats.visibleBlocks;
        m_stats.readyBlocks += ready;
        auto it = m_pending.find({b.channel, b.block});
        if (it == m_pending.end()) continue;
        (ready ? m_stats.prefetchHits : m_stats.prefetchLate) += 1;
        m_pending.erase(it);
    }
}

// Prefetched blocks the view has gone past (or turned away from) without showing are waste.
void PageLoader::dropPassed(const Page& page, int direction)
{
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        const auto& span = m_scheduler.view().source->blocks(it->first.first)[it->first.second];
        const bool passed =
            direction > 0 ? it->second <= page.range.start : blockTimes(it->first.first, span).start >= page.range.end;
        if (passed) {
            ++m_stats.wastedBlocks;
            it = m_pending.erase(it);
        } else {
            ++it;
        }
    }
}

// Pages ahead: enough that decoding keeps up with the paging interval, within half the cache budget left for
// blocks (what pyramids reserve is not).
int PageLoader::depth(std::size_t pageBlocks) const
{
    const SchedulerStats s = m_scheduler.stats();
    std::uint64_t decoded = 0;
    for (auto d : s.decoded) decoded += d;
    const double usPerBlock = decoded ? static_cast<double>(s.decodeMicroseconds) / static_cast<double>(decoded) : 0;
    const double pageMs =
        usPerBlock * static_cast<double>(pageBlocks) / 1000.0 / static_cast<double>(m_scheduler.threadCount());
    int pages = m_intervalMs > 0 ? static_cast<int>(std::ceil(pageMs / std::max(m_intervalMs, 1.0))) + 1 : 1;
    const BlockCache& cache = *m_scheduler.view().cache;
    const std::size_t budget = cache.budget() - std::min(cache.budget(), cache.stats().reserved);
    const std::size_t pageBytes = pageBlocks * 4 * 4096; // blocks of up to a few thousand samples
    if (pageBytes > 0) pages = std::min<int>(pages, static_cast<int>(budget / 2 / pageBytes));
    return std::clamp(pages, 1, m_maxAhead);
}

void PageLoader::prefetch(const Page& page, int direction)
{
    const core::BlockSource& source = *m_scheduler.view().source;
    BlockCache& cache = *m_scheduler.view().cache;
    std::vector<BlockId> near, far;
    const std::size_t pageBlocks = blocksOf(source, m_info, page.channels, page.range, m_scheduler.view().times).size();
    m_stats.pagesAhead = depth(pageBlocks);
    for (int k = 1; k <= m_stats.pagesAhead; ++k) {
        const core::TimeRange r = shifted(page.range, static_cast<std::int64_t>(direction) * k);
        for (const BlockId& b : blocksOf(source, m_info, page.channels, r, m_scheduler.view().times)) {
            const auto key = Key{b.channel, b.block};
            if (!m_pending.count(key) && cache.peek({m_scheduler.view().recording, b.channel, b.block}))
                continue; // already cached (e.g. shared with the page shown): not prefetch's to count
            if (m_pending.count(key)) {
                (k == 1 ? near : far).push_back(b); // still wanted: keep it queued in the new request
                continue;
            }
            const core::BlockSpan& span = source.blocks(b.channel)[b.block];
            m_pending[key] = blockTimes(b.channel, span).end;
            ++m_stats.prefetchedBlocks;
            (k == 1 ? near : far).push_back(b);
        }
    }
    m_scheduler.submit({m_view, Lane::Near, std::move(near), true, {}});
    m_scheduler.submit({m_view, Lane::Far, std::move(far), true, {}});
}

std::uint64_t PageLoader::show(const Page& page, std::function<void(const RequestResult&)> done)
{
    const auto now = std::chrono::steady_clock::now();
    const bool jump = isJump(page);
    int direction = m_direction;
    if (jump) {
        ++m_stats.jumps;
        m_scheduler.cancel(m_view, Lane::Near);
        m_scheduler.cancel(m_view, Lane::Far);
        m_stats.wastedBlocks += m_pending.size();
        m_pending.clear();
        direction = 1;
    } else if (page.range.start != m_last->range.start) {
        direction = page.range.start > m_last->range.start ? 1 : -1;
        const double ms = std::chrono::duration<double, std::milli>(now - m_lastTime).count();
        m_intervalMs = m_intervalMs > 0 ? 0.7 * m_intervalMs + 0.3 * ms : ms;
    }
    const std::vector<BlockId> visible =
        blocksOf(*m_scheduler.view().source, m_info, page.channels, page.range, m_scheduler.view().times);
    account(visible);
    if (!jump) dropPassed(page, direction);
    std::vector<BlockRange> pins;
    for (const BlockId& b : visible) {
        if (!pins.empty() && pins.back().channel == b.channel && pins.back().endBlock == b.block)
            ++pins.back().endBlock;
        else
            pins.push_back({b.channel, b.block, b.block + 1});
    }
    m_scheduler.view().cache->pin(m_scheduler.view().recording, std::move(pins));
    const std::uint64_t id = m_scheduler.submit({m_view, Lane::Visible, visible, true, std::move(done)});
    ++m_stats.pages;
    m_direction = direction;
    m_last = page;
    m_lastTime = now;
    if (m_prefetch) prefetch(page, direction);
    return id;
}

} // namespace lv::cache
