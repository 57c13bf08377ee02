// E1 open: time to the channel list and to the first page (10 s of every channel, decoded and assembled), for
// cold (page cache evicted), warm (files cached, no snapshot), snapshot (warm) and snapshot-cold (the session's
// files and the snapshot evicted) opens, fresh ViewSession per open.
#include "Scenario.h"

#include <filesystem>
#include <numeric>

namespace lv::bench {

Json runOpen(const CellArgs& a)
{
    const std::string which = a.text("session", "64ch-12h-seg60");
    const bool tar = a.text("container", "dir") == "tar";
    const std::string mode = a.text("mode", "warm"); // cold | warm | snapshot | snapshot-cold
    const bool snapshot = mode.rfind("snapshot", 0) == 0, cold = mode.find("cold") != std::string::npos;
    const int ops = static_cast<int>(a.number("ops", 200));
    const std::string path = session(which, tar);
    const std::string snapshots = "/tmp/longview-bench/scenario-snapshots";
    std::filesystem::create_directories(snapshots);
    view::ViewOptions options;
    options.snapshotDirectory = snapshot ? snapshots : "";
    if (snapshot) openView(path, options); // make sure the snapshot exists
    warm(path);
    Series list, firstPage;
    double resident = 0;
    std::size_t segments = 0;
    for (int i = 0; i < ops; ++i) {
        if (cold) resident = std::max(resident, evict(path));
        if (cold && snapshot) resident = std::max(resident, evict(snapshots));
        const auto started = std::chrono::steady_clock::now();
        auto s = openView(path, options);
        list.add(msSince(started));
        cache::PageLoader loader(s->scheduler(), s->info(), 1);
        loader.setPrefetch(false);
        std::vector<std::size_t> channels(s->info().channels.size());
        std::iota(channels.begin(), channels.end(), std::size_t{0});
        showAndAssemble(*s, loader, {channels, {s->info().start, s->info().start + 10'000'000}});
        firstPage.add(msSince(started));
        segments = 0;
        for (const auto& c : s->info().channels) segments += c.segments.size();
    }
    return Json{{"session", which},
                {"container", tar ? "tar" : "dir"},
                {"mode", mode},
                {"segments", segments},
                {"channelList", list.summary()},
                {"firstPage", firstPage.summary()},
                {"residentAfterEvict", resident}};
}

} // namespace lv::bench
