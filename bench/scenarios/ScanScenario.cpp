// E5 shared consumers (a viewer paging while three readers scan the same session through the same cache) and E6
// a single pass over the whole session with per-window statistics, on 1 thread and on all, against the floor of
// reading the data files.
#include "Scenario.h"

#include "decode/ThreadPool.h"

#include <atomic>
#include <cmath>
#include <fcntl.h>
#include <filesystem>
#include <future>
#include <numeric>
#include <set>
#include <thread>
#include <unistd.h>

namespace lv::bench {

namespace {

std::vector<std::size_t> allChannels(const core::RecordingInfo& info)
{
    std::vector<std::size_t> c(info.channels.size());
    std::iota(c.begin(), c.end(), std::size_t{0});
    return c;
}

// Samples of the blocks in `ids`.
std::uint64_t samplesOf(const core::BlockSource& source, const std::vector<cache::BlockId>& ids)
{
    std::uint64_t n = 0;
    for (const cache::BlockId& b : ids) n += source.blocks(b.channel)[b.block].count;
    return n;
}

} // namespace

Json runShared(const CellArgs& a)
{
    const int pages = static_cast<int>(a.number("ops", 200));
    const std::string path = session("64ch-12h-seg60");
    warm(path);
    auto s = openView(path, {});
    const core::BlockSource& source = *s->context().source;
    const auto channels = allChannels(s->info());
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> requested{0};
    std::mutex distinctMutex;
    std::set<std::pair<std::uint32_t, std::uint64_t>> distinct;
    auto note = [&](const std::vector<cache::BlockId>& ids) {
        requested += samplesOf(source, ids);
        std::lock_guard lock(distinctMutex);
        for (const auto& b : ids) distinct.insert({b.channel, b.block});
    };
    auto scanner = [&](std::uint64_t view) {
        for (core::Uutc t = s->info().start; !stop && t < s->info().end; t += 60'000'000) {
            auto ids = cache::PageLoader::blocksOf(source, s->info(), channels, {t, t + 60'000'000});
            note(ids);
            std::promise<void> done;
            s->scheduler().submit(
                {view, cache::Lane::Export, ids, true, [&](const cache::RequestResult&) { done.set_value(); }});
            done.get_future().wait();
        }
    };
    std::vector<std::thread> scanners;
    for (std::uint64_t v = 10; v < 13; ++v) scanners.emplace_back(scanner, v);
    cache::PageLoader loader(s->scheduler(), s->info(), 1);
    Series latency;
    const core::Uutc t0 = s->info().start + 3600'000'000;
    for (int i = 0; i < pages; ++i) {
        const cache::Page page{channels, {t0 + i * 10'000'000ll, t0 + (i + 1) * 10'000'000ll}};
        note(cache::PageLoader::blocksOf(source, s->info(), channels, page.range));
        latency.add(showAndAssemble(*s, loader, page));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    stop = true;
    for (auto& t : scanners) t.join();
    s->scheduler().waitIdle();
    std::uint64_t decodedBlocks = 0;
    for (auto d : s->scheduler().stats().decoded) decodedBlocks += d;
    const auto c = s->cache().stats();
    const double blockSamples = static_cast<double>(source.blocks(0)[1].count);
    return Json{{"viewerLatency", latency.summary()},
                {"requestedSamples", requested.load()},
                {"decodedSamples", static_cast<double>(c.misses) * blockSamples},
                {"decodedOverRequested", static_cast<double>(c.misses) * blockSamples / static_cast<double>(requested)},
                {"decodedOverDistinct", static_cast<double>(c.misses) / static_cast<double>(distinct.size())},
                {"schedulerDecoded", decodedBlocks},
                {"sharedWaits", c.sharedWaits}};
}

Json runScan(const CellArgs& a)
{
    const auto threads = static_cast<std::size_t>(a.number("threads", 1));
    const std::string path = session("64ch-12h-seg60");
    warm(path);
    // The floor: read every data file once (warm page cache).
    std::uint64_t bytes = 0;
    const auto floorStart = std::chrono::steady_clock::now();
    for (const auto& e : std::filesystem::recursive_directory_iterator(path))
        if (e.path().extension() == ".tdat") bytes += warm(e.path().string());
    const double floorMs = msSince(floorStart);
    auto s = openView(path, {});
    decode::ThreadPool pool(threads);
    core::ReadControl control;
    control.runner = &pool;
    const auto channels = allChannels(s->info());
    Series chunk;
    double checksum = 0;
    std::uint64_t samples = 0;
    const auto started = std::chrono::steady_clock::now();
    for (core::Uutc t = s->info().start; t < s->info().end; t += 120'000'000) { // 2-minute windows
        const auto t1 = std::chrono::steady_clock::now();
        auto got = core::readRange(s->recording(), channels, {t, std::min(t + 120'000'000, s->info().end)}, control);
        if (!got) fail(got.error().describe());
        for (const auto& ch : *got) { // per-window compute: mean square per channel
            double sum = 0;
            for (std::int32_t v : ch.raw)
                if (v != core::kNoSample) sum += static_cast<double>(v) * v, ++samples;
            checksum += std::sqrt(sum);
        }
        chunk.add(msSince(t1));
    }
    const double ms = msSince(started);
    return Json{{"threads", pool.threadCount()},
                {"samples", samples},
                {"ms", ms},
                {"msamplesPerSecond", static_cast<double>(samples) / ms / 1000.0},
                {"floorMs", floorMs},
                {"floorBytes", bytes},
                {"overFloor", ms / floorMs},
                {"window", chunk.summary()},
                {"checksum", checksum}};
}

} // namespace lv::bench
