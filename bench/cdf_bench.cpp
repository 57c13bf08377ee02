// CDF reading against its floors (a plain pread of the file; memcpy of the counts) and CDFpp's published figures:
// 32 REAL4 vectors of 3 values at 32 Hz for 4 h (CDFpp's 178 MB example size), in VVRs and in per-variable GZIP
// CVVRs: open, every sample on 1 and 2 threads, 10 s windows, and the epoch kernels per instruction set.
#include "CdfFixture.h"
#include "PlainRead.h"

#include "core/Recording.h"
#include "decode/ThreadPool.h"
#include "formats/cdf/CdfRecording.h"
#include "formats/cdf/CdfTime.h"
#include "formats/cdf/CdfTimeKernels.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>

namespace {

namespace cdf = lv::formats::cdf;
using lv::core::RawSlice;

lv::bench::CdfSpec spec(bool gzip)
{
    lv::bench::CdfSpec s;
    s.records = 460800; // 4 h at 32 Hz: 32 x 3 x 4 B + 8 B per record, 177 MB
    s.gzip = gzip;
    return s;
}

std::unique_ptr<cdf::CdfRecording> open(const std::string& path)
{
    auto r = cdf::openCdf(path);
    if (!r) {
        std::fprintf(stderr, "%s\n", r.error().describe().c_str());
        std::abort();
    }
    return std::move(*r);
}

double samples(const cdf::CdfRecording& r)
{
    double n = 0;
    for (const auto& ch : r.info().channels) n += static_cast<double>(ch.gridLength);
    return n;
}

void BM_CdfOpen(benchmark::State& state)
{
    const std::string path = lv::bench::ensureCdf(spec(state.range(0) != 0));
    for (auto _ : state) benchmark::DoNotOptimize(open(path));
    state.SetLabel(std::to_string(std::filesystem::file_size(path) >> 20) + " MiB");
}
BENCHMARK(BM_CdfOpen)->ArgName("gzip")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Floor: the file read with pread in 1 MiB chunks into one buffer (page cache warm).
void BM_CdfFloorPread(benchmark::State& state)
{
    const std::string path = lv::bench::ensureCdf(spec(state.range(0) != 0));
    auto r = open(path);
    lv::bench::PlainRead file(path);
    for (auto _ : state) benchmark::DoNotOptimize(file.once());
    state.counters["samples"] = benchmark::Counter(samples(*r), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CdfFloorPread)->ArgName("gzip")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// Floor: memcpy of the output (every channel's int32 counts).
void BM_CdfFloorMemcpy(benchmark::State& state)
{
    auto r = open(lv::bench::ensureCdf(spec(false)));
    const auto n = static_cast<std::size_t>(samples(*r));
    std::vector<std::int32_t> from(n, 1), to(n);
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), n * sizeof(std::int32_t));
        benchmark::ClobberMemory();
    }
    state.counters["samples"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CdfFloorMemcpy)->Unit(benchmark::kMillisecond)->UseRealTime();

// Every sample of every channel as counts through readRaw (all channels over the whole range in one call).
void BM_CdfReadAll(benchmark::State& state)
{
    auto r = open(lv::bench::ensureCdf(spec(state.range(0) != 0)));
    lv::decode::ThreadPool pool(static_cast<std::size_t>(state.range(1)));
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
    state.counters["samples"] = benchmark::Counter(samples(*r), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CdfReadAll)
    ->ArgNames({"gzip", "threads"})
    ->ArgsProduct({{0, 1}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Windows of 10 s (320 records) at random places: one channel, or all 96; one thread.
void BM_CdfWindow10s(benchmark::State& state)
{
    auto r = open(lv::bench::ensureCdf(spec(state.range(0) != 0)));
    const auto channels = static_cast<std::size_t>(state.range(1));
    const std::int64_t n = 320, length = r->info().channels[0].gridLength;
    std::vector<std::vector<std::int32_t>> buffers(channels, std::vector<std::int32_t>(n));
    std::mt19937_64 rng(3);
    for (auto _ : state) {
        const auto first = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(length - n));
        std::vector<RawSlice> slices;
        for (std::size_t c = 0; c < channels; ++c) slices.push_back({c, first, buffers[c]});
        if (auto s = r->readRaw(slices, {}); !s) state.SkipWithError(s.error().describe().c_str());
    }
    state.counters["samples"] = benchmark::Counter(static_cast<double>(n * static_cast<std::int64_t>(channels)),
                                                   benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CdfWindow10s)
    ->ArgNames({"gzip", "channels"})
    ->ArgsProduct({{0, 1}, {1, 96}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// The epoch kernels on 1 M values (2000-2030 TT2000; 1970-2030 EPOCH), per instruction set, beside a memcpy.
void BM_CdfEpochKernels(benchmark::State& state)
{
    const auto level = static_cast<lv::core::SimdLevel>(state.range(1));
    if (!lv::core::cpuRuns(level)) {
        state.SkipWithError("this CPU does not run it");
        return;
    }
    const cdf::TimeKernels k = cdf::timeKernelsFor(level);
    std::mt19937_64 rng(5);
    const std::size_t n = 1 << 20;
    std::vector<std::int64_t> tt(n), out(n);
    std::vector<double> ms(n);
    for (std::size_t i = 0; i < n; ++i) {
        tt[i] = static_cast<std::int64_t>(rng() % 946728000000000000ULL);
        ms[i] = cdf::kEpochUnixMs + static_cast<double>(rng() % 1900000000000ULL);
    }
    for (auto _ : state) {
        if (state.range(0) == 0)
            k.tt2000(tt.data(), n, out.data());
        else
            k.epoch(ms.data(), n, out.data());
        benchmark::ClobberMemory();
    }
    state.SetLabel(std::string(state.range(0) == 0 ? "TT2000 " : "EPOCH ") +
                   std::string(lv::core::simdLevelName(level)));
    state.counters["values"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CdfEpochKernels)
    ->ArgNames({"epoch", "level"})
    ->ArgsProduct({{0, 1}, {0, 2, 3}})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

void BM_CdfEpochFloorMemcpy(benchmark::State& state)
{
    const std::size_t n = 1 << 20;
    std::vector<std::int64_t> from(n, 1), to(n);
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), n * 8);
        benchmark::ClobberMemory();
    }
    state.counters["values"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CdfEpochFloorMemcpy)->Unit(benchmark::kMicrosecond)->UseRealTime();

} // namespace
