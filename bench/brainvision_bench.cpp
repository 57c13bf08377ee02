// BrainVision reading against its floors (a plain pread of the data file; memcpy of the counts), on 64 ch x 1 h at
// 256 Hz converted once from the cached synthetic session: open, every sample on 1 and 2 threads, 10 s windows.
#include "BenchSession.h"
#include "PlainRead.h"

#include "convert/BrainVisionExport.h"
#include "core/Recording.h"
#include "decode/ThreadPool.h"
#include "formats/brainvision/BvRecording.h"
#include "formats/mef3/MefRecording.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

namespace {

namespace bv = lv::formats::brainvision;
using lv::core::RawSlice;

[[noreturn]] void fail(const std::string& what)
{
    std::fprintf(stderr, "%s\n", what.c_str());
    std::abort();
}

// The file set beside the cached session, converted from it when absent.
std::string ensureHeader()
{
    const lv::bench::BenchSession s = lv::bench::ensureSession({64, 3600.0, 256.0, 0.1, 10.0});
    const std::string out = std::filesystem::path(s.path).parent_path() / (s.spec.key() + ".vhdr");
    if (std::filesystem::exists(out)) return out;
    auto mef = lv::formats::mef3::openMef3(s.path, {});
    if (!mef) fail(mef.error().describe());
    lv::convert::Selection all;
    all.range = {(*mef)->info().start, (*mef)->info().end};
    auto written = lv::convert::exportBrainVision(**mef, all, {}, out, {});
    if (!written) fail(written.error().describe());
    return out;
}

const std::string& header()
{
    static const std::string path = ensureHeader();
    return path;
}

std::unique_ptr<bv::BvRecording> open()
{
    auto r = bv::openBrainVision(header());
    if (!r) fail(r.error().describe());
    return std::move(*r);
}

double samples(const bv::BvRecording& r)
{
    return static_cast<double>(r.dataPoints()) * static_cast<double>(r.info().channels.size());
}

void BM_BvOpen(benchmark::State& state)
{
    (void)header();
    for (auto _ : state) benchmark::DoNotOptimize(open());
}
BENCHMARK(BM_BvOpen)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Floor: the data file read with pread in 1 MiB chunks into one buffer (page cache warm).
void BM_BvFloorPread(benchmark::State& state)
{
    auto r = open();
    const std::string data = std::filesystem::path(header()).replace_extension(".eeg");
    lv::bench::PlainRead file(data);
    for (auto _ : state) benchmark::DoNotOptimize(file.once());
    state.counters["samples"] = benchmark::Counter(samples(*r), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_BvFloorPread)->Unit(benchmark::kMillisecond)->UseRealTime();

// Floor: memcpy of the output (every channel's int32 counts) from one buffer to another.
void BM_BvFloorMemcpy(benchmark::State& state)
{
    auto r = open();
    const auto n = static_cast<std::size_t>(samples(*r));
    std::vector<std::int32_t> from(n, 1), to(n);
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), n * sizeof(std::int32_t));
        benchmark::ClobberMemory();
    }
    state.counters["samples"] = benchmark::Counter(samples(*r), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_BvFloorMemcpy)->Unit(benchmark::kMillisecond)->UseRealTime();

// Every sample of every channel as int32 counts through readRaw, into buffers reused each iteration.
void BM_BvReadAll(benchmark::State& state)
{
    auto r = open();
    lv::decode::ThreadPool pool(static_cast<std::size_t>(state.range(0)));
    lv::core::ReadControl control;
    control.runner = &pool;
    std::vector<std::vector<std::int32_t>> buffers;
    std::vector<RawSlice> slices;
    for (std::size_t c = 0; c < r->info().channels.size(); ++c) {
        buffers.emplace_back(static_cast<std::size_t>(r->info().channels[c].gridLength));
        slices.push_back({c, 0, buffers.back()});
    }
    for (auto _ : state)
        if (auto s = r->readRaw(slices, control); !s) state.SkipWithError(s.error().describe().c_str());
    state.SetLabel(r->header().format == bv::BinaryFormat::Float32 ? "IEEE_FLOAT_32" : "INT");
    state.counters["samples"] = benchmark::Counter(samples(*r), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_BvReadAll)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Windows of 10 s at random places: one channel of 64, or all 64; one thread.
void BM_BvWindow10s(benchmark::State& state)
{
    auto r = open();
    const std::size_t channels = static_cast<std::size_t>(state.range(0));
    const std::int64_t n = 2560, length = r->info().channels[0].gridLength;
    std::vector<std::vector<std::int32_t>> buffers(channels, std::vector<std::int32_t>(n));
    std::mt19937_64 rng(3);
    for (auto _ : state) {
        const std::int64_t first = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(length - n));
        std::vector<RawSlice> slices;
        for (std::size_t c = 0; c < channels; ++c) slices.push_back({c, first, buffers[c]});
        if (auto s = r->readRaw(slices, {}); !s) state.SkipWithError(s.error().describe().c_str());
    }
    state.counters["samples"] = benchmark::Counter(static_cast<double>(n * static_cast<std::int64_t>(channels)),
                                                   benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_BvWindow10s)->ArgName("channels")->Arg(1)->Arg(64)->Unit(benchmark::kMicrosecond)->UseRealTime();

} // namespace
