// Viewing benchmarks on a synthetic 64 ch x 24 h, 256 Hz session (written once by `synth`'s engine job and
// cached under /tmp/longview-bench): the whole-recording overview from stored block extrema, and one 10 s page
// of all channels, exact, from a cold and from a warm block cache; opens of 64 ch x 12 h sessions with and
// without metadata snapshots.
#include "cache/Envelope.h"
#include "convert/SynthExport.h"
#include "decode/ThreadPool.h"
#include "formats/mef3/MefRecording.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>

namespace {

namespace fs = std::filesystem;
using lv::cache::BlockCache;
using lv::cache::EnvelopeRequest;

constexpr std::size_t kColumns = 1920;

[[noreturn]] void fail(const lv::core::Error& e)
{
    std::fprintf(stderr, "benchmark failed: %s\n", e.describe().c_str());
    std::abort();
}

lv::decode::ThreadPool& pool()
{
    static lv::decode::ThreadPool p;
    return p;
}

lv::formats::mef3::MefRecording& session()
{
    static const auto recording = [] {
        const std::string dir = "/tmp/longview-bench/synth-64ch-24h-256Hz-seed1-v1";
        const std::string path = dir + "/s.mefd";
        if (!fs::exists(path)) {
            fs::create_directories(dir);
            lv::convert::SynthOptions o;
            o.channels = 64;
            o.hours = 24;
            lv::core::ReadControl control;
            control.runner = &pool();
            if (auto s = lv::convert::writeSynthSession(o, path, control); !s) fail(s.error());
        }
        auto opened = lv::formats::mef3::openMef3(path, {});
        if (!opened) fail(opened.error());
        return std::move(*opened);
    }();
    return *recording;
}

// A cached 64 ch x 12 h synthetic session with a new segment every `minutes`.
const std::string& segmentedSession(int minutes)
{
    static std::map<int, std::string> paths;
    auto& path = paths[minutes];
    if (!path.empty()) return path;
    const std::string dir = "/tmp/longview-bench/synth-64ch-12h-256Hz-seg" + std::to_string(minutes) + "min-v1";
    path = dir + "/s.mefd";
    if (!fs::exists(path)) {
        fs::create_directories(dir);
        lv::convert::SynthOptions o;
        o.channels = 64;
        o.hours = 12;
        o.segmentMinutes = minutes / 10.0;
        lv::core::ReadControl control;
        control.runner = &pool();
        if (auto s = lv::convert::writeSynthSession(o, path, control); !s) fail(s.error());
    }
    return path;
}

const char* const kSnapshots = "/tmp/longview-bench/snapshots";

// Args: segment length in tenths of a minute (600: 1 h, 45: 4.5 min = 10,240 segments); 0: no snapshot, 1: a
// snapshot checked before use (the CLI), 2: a snapshot served unchecked (the GUI, which checks it afterwards).
void BM_Open12h64ch(benchmark::State& state)
{
    const std::string& path = segmentedSession(static_cast<int>(state.range(0)));
    const lv::formats::mef3::OpenOptions options{"", state.range(1) ? kSnapshots : "", state.range(1) == 2};
    if (auto warm = lv::formats::mef3::openMef3(path, {"", options.snapshotDirectory}); !warm)
        fail(warm.error()); // writes the snapshot
    std::size_t segments = 0;
    for (auto _ : state) {
        auto opened = lv::formats::mef3::openMef3(path, options);
        if (!opened) fail(opened.error());
        segments = 0;
        for (const auto& ch : (*opened)->info().channels) segments += ch.segments.size();
    }
    state.counters["segments"] = static_cast<double>(segments);
}
BENCHMARK(BM_Open12h64ch)->ArgsProduct({{600, 45}, {0, 1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// What follows a deferred open: the check (on the GUI's background thread), or the first use of every channel's
// blocks (what the overview needs first; open included). Arg: segment length as above.
void BM_SnapshotCheck12h64ch(benchmark::State& state)
{
    const std::string& path = segmentedSession(static_cast<int>(state.range(0)));
    auto opened = lv::formats::mef3::openMef3(path, {"", kSnapshots, true});
    if (!opened) fail(opened.error());
    for (auto _ : state)
        if (!(*opened)->checkSnapshot().fresh()) std::abort();
}
BENCHMARK(BM_SnapshotCheck12h64ch)->Arg(600)->Arg(45)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SnapshotBlocks12h64ch(benchmark::State& state)
{
    const std::string& path = segmentedSession(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        auto opened = lv::formats::mef3::openMef3(path, {"", kSnapshots, true});
        if (!opened) fail(opened.error());
        std::size_t blocks = 0;
        for (std::size_t c = 0; c < (*opened)->info().channels.size(); ++c) blocks += (*opened)->blocks(c).size();
        benchmark::DoNotOptimize(blocks);
    }
}
BENCHMARK(BM_SnapshotBlocks12h64ch)->Arg(600)->Arg(45)->Unit(benchmark::kMillisecond)->UseRealTime();

// Envelopes of every channel over grid range [first, end), channels in parallel.
void envelopes(BlockCache& cache, std::int64_t first, std::int64_t end, double smear)
{
    auto& r = session();
    const std::size_t channels = r.info().channels.size();
    pool().parallelFor(channels, [&](std::size_t c) {
        auto got = lv::cache::computeEnvelope(r, cache, {1, c, first, end, kColumns, smear}, {});
        if (!got) fail(got.error());
        benchmark::DoNotOptimize(got->data());
    });
}

void BM_Overview24h64ch(benchmark::State& state)
{
    const std::int64_t length = session().info().channels[0].gridLength;
    for (auto _ : state) {
        BlockCache cache(512 << 20);
        envelopes(cache, 0, length, 0.25);
    }
}
BENCHMARK(BM_Overview24h64ch)->Unit(benchmark::kMillisecond)->UseRealTime();

// Arg 0: a fresh cache each time (decode every block of the page); 1: the page's blocks already cached.
void BM_Page10s64ch(benchmark::State& state)
{
    const std::int64_t first = 12 * 3600 * 256 + 1234, end = first + 10 * 256;
    BlockCache warm(512 << 20);
    envelopes(warm, first, end, 0.0);
    for (auto _ : state) {
        if (state.range(0)) {
            envelopes(warm, first, end, 0.0);
        } else {
            BlockCache cold(512 << 20);
            envelopes(cold, first, end, 0.0);
        }
    }
}
BENCHMARK(BM_Page10s64ch)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
