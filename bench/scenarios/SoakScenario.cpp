// E11 memory soak: a random walk (pages forward and back, jumps, zooms with envelopes) without think time for a
// given duration and cache budget; RSS sampled every second, peak RSS, RSS after going idle.
#include "Scenario.h"

#include <malloc.h>
#include <numeric>
#include <random>
#include <thread>

namespace lv::bench {

Json runSoak(const CellArgs& a)
{
    const auto budget = static_cast<std::size_t>(a.number("budgetMB", 64)) << 20;
    const double seconds = a.number("seconds", 3600);
    const std::string path = session("64ch-12h-seg60");
    const std::size_t rssBefore = rssBytes();
    auto s = openView(path, {"", "", nullptr, budget, 0});
    std::vector<std::size_t> channels(s->info().channels.size());
    std::iota(channels.begin(), channels.end(), std::size_t{0});
    cache::PageLoader loader(s->scheduler(), s->info(), 1);
    std::mt19937_64 rng(11);
    const core::TimeRange whole{s->info().start, s->info().end};
    core::Uutc page = 10'000'000, t = whole.start;
    Series latency;
    std::vector<double> rssMB;
    const auto started = std::chrono::steady_clock::now();
    auto nextSample = started;
    std::uint64_t ops = 0;
    while (msSince(started) < seconds * 1000) {
        const unsigned roll = rng() % 100;
        if (roll < 60) {
            t += (roll < 45 ? 1 : -1) * page;
        } else if (roll < 75) {
            t = whole.start + static_cast<core::Uutc>(rng() % static_cast<std::uint64_t>(whole.end - whole.start));
        } else {
            page = roll < 88 ? std::min<core::Uutc>(page * 4, 3600'000'000) : std::max<core::Uutc>(page / 4, 1'000'000);
            for (std::size_t c : channels)
                if (auto e = s->envelope(c, {t, t + page}, 1920, 0.25); !e) fail(e.error().describe());
        }
        t = std::clamp(t, whole.start, whole.end - page);
        if (page <= 60'000'000) latency.add(showAndAssemble(*s, loader, {channels, {t, t + page}}));
        ++ops;
        if (std::chrono::steady_clock::now() >= nextSample) {
            rssMB.push_back(static_cast<double>(rssBytes()) / (1 << 20));
            nextSample += std::chrono::seconds(1);
        }
    }
    s->scheduler().cancelView(1);
    s->scheduler().waitIdle();
    s->cache().pin(s->context().recording, {});
    std::this_thread::sleep_for(std::chrono::seconds(2));
    malloc_trim(0);
    const auto quarter = [&](double q) {
        return rssMB.empty() ? 0.0 : rssMB[static_cast<std::size_t>(q * (rssMB.size() - 1))];
    };
    return Json{{"budgetMB", budget >> 20},
                {"seconds", seconds},
                {"ops", ops},
                {"pageLatency", latency.summary()},
                {"rssBeforeOpenMB", static_cast<double>(rssBefore) / (1 << 20)},
                {"peakRssMB", static_cast<double>(peakRssBytes()) / (1 << 20)},
                {"rssAt25_50_75_100MB", Json::array({quarter(0.25), quarter(0.5), quarter(0.75), quarter(1.0)})},
                {"rssIdleMB", static_cast<double>(rssBytes()) / (1 << 20)},
                {"cacheMB", static_cast<double>(s->cache().stats().bytes) / (1 << 20)},
                {"pyramidMB", static_cast<double>(s->pyramid().bytes()) / (1 << 20)}};
}

} // namespace lv::bench
