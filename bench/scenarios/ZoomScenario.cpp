// E4 zoom ladder on 64 ch x 24 h: the whole recording in 1920 columns, then x4 steps down to 10 s around a random
// centre; latency per step for envelopes of all channels (blocks or pyramid bins up to half a column wide are
// summarised, the rest decoded), without and with the pyramid (each ladder starts once the saved pyramid is read;
// open + read time reported); and the pyramid's build time and size.
#include "Scenario.h"

#include "decode/ThreadPool.h"

#include <filesystem>
#include <random>

namespace lv::bench {

namespace {

constexpr std::size_t kColumns = 1920;

double envelopes(view::ViewSession& s, decode::ThreadPool& pool, core::TimeRange range)
{
    const auto started = std::chrono::steady_clock::now();
    pool.parallelFor(s.info().channels.size(), [&](std::size_t c) {
        if (auto e = s.envelope(c, range, kColumns, 0.5); !e) fail(e.error().describe());
    });
    return msSince(started);
}

Json buildPyramid(const std::string& path, const std::string& snapshots)
{
    std::filesystem::remove_all(snapshots);
    std::filesystem::create_directories(snapshots);
    warm(path);
    auto s = openView(path, {"", snapshots, nullptr, 512u << 20, 0});
    const auto started = std::chrono::steady_clock::now();
    s->buildPyramid();
    s->scheduler().waitIdle();
    const double ms = msSince(started);
    if (auto st = s->savePyramid(); !st) fail(st.error().describe());
    return Json{{"buildMs", ms},
                {"memoryBytes", s->pyramid().bytes()},
                {"fileBytes", std::filesystem::file_size(s->pyramidFile())},
                {"blocks", s->pyramid().builtBlocks()}};
}

} // namespace

Json runZoom(const CellArgs& a)
{
    const bool pyramid = a.number("pyramid", 0) != 0;
    const int ladders = static_cast<int>(a.number("ladders", 25));
    const std::string path = session("64ch-24h");
    const std::string snapshots = "/tmp/longview-bench/scenario-pyramid";
    Json result{{"pyramid", pyramid}};
    if (pyramid) result["build"] = buildPyramid(path, snapshots);
    warm(path);
    decode::ThreadPool pool;
    std::mt19937_64 rng(3);
    std::vector<Series> steps;
    Series load;
    for (int l = 0; l < ladders; ++l) {
        const auto opened = std::chrono::steady_clock::now();
        auto s = openView(path, {"", pyramid ? snapshots : "", nullptr, 512u << 20, 0}); // a fresh block cache
        s->waitForPyramid(); // read in the background after the open: the ladder starts once it is in
        if (pyramid) load.add(msSince(opened));
        const core::TimeRange whole{s->info().start, s->info().end};
        const core::Uutc centre =
            whole.start + static_cast<core::Uutc>(rng() % static_cast<std::uint64_t>(whole.end - whole.start));
        core::Uutc span = whole.end - whole.start;
        for (std::size_t step = 0;; ++step) {
            const core::TimeRange r = step == 0 ? whole : core::TimeRange{centre - span / 2, centre + span / 2};
            if (steps.size() <= step) steps.emplace_back();
            steps[step].add(envelopes(*s, pool, r));
            if (span <= 10'000'000) break;
            span = std::max<core::Uutc>(span / 4, 10'000'000);
        }
    }
    Json perStep = Json::array();
    for (const Series& step : steps) perStep.push_back(step.summary());
    result["steps"] = perStep;
    if (pyramid) result["openAndLoadPyramid"] = load.summary();
    return result;
}

} // namespace lv::bench
