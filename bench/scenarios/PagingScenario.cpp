// E2 paging (pages forward with a think time: latency per page, prefetch hits and waste) and E3 jump and revisit
// (random jumps, each followed by two pages and a return to the jump target). Page cache warm.
#include "Scenario.h"

#include <numeric>
#include <random>
#include <thread>

namespace lv::bench {

namespace {

std::vector<std::size_t> firstChannels(std::size_t n)
{
    std::vector<std::size_t> c(n);
    std::iota(c.begin(), c.end(), std::size_t{0});
    return c;
}

std::string sessionFor(std::size_t channels) { return channels > 64 ? "128ch-4h" : "64ch-12h-seg60"; }

Json prefetchJson(const cache::PrefetchStats& p)
{
    const auto ratio = [](std::uint64_t a, std::uint64_t b) { return b ? static_cast<double>(a) / b : 0.0; };
    return Json{{"visibleBlocks", p.visibleBlocks},
                {"readyRate", ratio(p.readyBlocks, p.visibleBlocks)},
                {"hitRate", ratio(p.prefetchHits, p.visibleBlocks)},
                {"lateRate", ratio(p.prefetchLate, p.visibleBlocks)},
                {"prefetchedBlocks", p.prefetchedBlocks},
                {"wasteRate", ratio(p.wastedBlocks, p.prefetchedBlocks)},
                {"pagesAhead", p.pagesAhead}};
}

} // namespace

Json runPaging(const CellArgs& a)
{
    const auto channels = static_cast<std::size_t>(a.number("channels", 64));
    const double pageSeconds = a.number("pageSeconds", 10);
    const auto think = std::chrono::milliseconds(static_cast<int>(a.number("thinkMs", 0)));
    const int ops = static_cast<int>(a.number("ops", 200));
    const std::string path = session(sessionFor(channels));
    warm(path);
    auto s = openView(path, {});
    cache::PageLoader loader(s->scheduler(), s->info(), 1);
    const auto page = static_cast<core::Uutc>(pageSeconds * 1e6);
    const core::Uutc t0 = s->info().start + 600'000'000;
    Series latency;
    for (int i = 0; i < ops; ++i) {
        latency.add(showAndAssemble(*s, loader, {firstChannels(channels), {t0 + i * page, t0 + (i + 1) * page}}));
        std::this_thread::sleep_for(think);
    }
    return Json{{"channels", channels},
                {"pageSeconds", pageSeconds},
                {"thinkMs", think.count()},
                {"latency", latency.summary()},
                {"prefetch", prefetchJson(loader.stats())}};
}

Json runJumps(const CellArgs& a)
{
    const auto channels = static_cast<std::size_t>(a.number("channels", 64));
    const auto think = std::chrono::milliseconds(static_cast<int>(a.number("thinkMs", 100)));
    const int jumps = static_cast<int>(a.number("jumps", 100));
    const std::string path = session(sessionFor(channels));
    warm(path);
    auto s = openView(path, {});
    cache::PageLoader loader(s->scheduler(), s->info(), 1);
    const core::Uutc page = 10'000'000;
    std::mt19937_64 rng(7);
    const core::Uutc span = s->info().end - s->info().start - 4 * page;
    Series jump, paging, revisit;
    const auto channelList = firstChannels(channels);
    for (int i = 0; i < jumps; ++i) {
        const core::Uutc t = s->info().start + static_cast<core::Uutc>(rng() % static_cast<std::uint64_t>(span));
        jump.add(showAndAssemble(*s, loader, {channelList, {t, t + page}}));
        std::this_thread::sleep_for(think);
        for (int k = 1; k <= 2; ++k) {
            paging.add(showAndAssemble(*s, loader, {channelList, {t + k * page, t + (k + 1) * page}}));
            std::this_thread::sleep_for(think);
        }
        revisit.add(showAndAssemble(*s, loader, {channelList, {t, t + page}}));
        std::this_thread::sleep_for(think);
    }
    return Json{{"channels", channels},     {"thinkMs", think.count()},     {"jump", jump.summary()},
                {"page", paging.summary()}, {"revisit", revisit.summary()}, {"prefetch", prefetchJson(loader.stats())}};
}

} // namespace lv::bench
