// EDF/BDF reading against its floors (a plain pread of the data records; memcpy of the counts; the scalar loops
// the SIMD kernels replace), on 64 ch x 1 h at 256 Hz converted once from the cached synthetic session.
#include "BenchSession.h"
#include "PlainRead.h"

#include "convert/EdfExport.h"
#include "core/Recording.h"
#include "core/SampleKernels.h"
#include "decode/ThreadPool.h"
#include "formats/edf/EdfRecording.h"
#include "formats/mef3/MefRecording.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <random>
#include <string>

namespace {

namespace edf = lv::formats::edf;
using lv::core::RawSlice;

[[noreturn]] void fail(const std::string& what)
{
    std::fprintf(stderr, "%s\n", what.c_str());
    std::abort();
}

// The file (.edf or .bdf) beside the cached session, converted from it (gaps filled) when absent.
std::string ensureFile(bool bdf)
{
    const lv::bench::BenchSession s = lv::bench::ensureSession({64, 3600.0, 256.0, 0.1, 10.0});
    const std::string out = std::filesystem::path(s.path).parent_path() / (s.spec.key() + (bdf ? ".bdf" : ".edf"));
    if (std::filesystem::exists(out)) return out;
    auto mef = lv::formats::mef3::openMef3(s.path, {});
    if (!mef) fail(mef.error().describe());
    const lv::core::TimeRange all{(*mef)->info().start, (*mef)->info().end};
    auto written = lv::convert::exportEdf(**mef, {{}, all, bdf, lv::convert::GapPolicy::Fill, 0.0}, out, {});
    if (!written) fail(written.error().describe());
    return out;
}

const std::string& file(bool bdf)
{
    static const std::string edfPath = ensureFile(false), bdfPath = ensureFile(true);
    return bdf ? bdfPath : edfPath;
}

std::unique_ptr<edf::EdfRecording> open(bool bdf)
{
    auto r = edf::openEdf(file(bdf));
    if (!r) fail(r.error().describe());
    return std::move(*r);
}

double dataSamples(const edf::EdfRecording& r)
{
    double n = 0;
    for (const auto& c : r.info().channels) n += static_cast<double>(c.gridLength);
    return n;
}

// Floor: the data records read with pread in 1 MiB chunks into one buffer (page cache warm).
void BM_EdfFloorPread(benchmark::State& state)
{
    const bool bdf = state.range(0) == 1;
    auto r = open(bdf);
    lv::bench::PlainRead records(file(bdf), static_cast<std::uint64_t>(r->header().headerBytes));
    for (auto _ : state) benchmark::DoNotOptimize(records.once());
    state.counters["samples"] = benchmark::Counter(dataSamples(*r), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_EdfFloorPread)->ArgName("bdf")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// Every sample of every channel as int32 counts through readRaw, into buffers reused each iteration.
void BM_EdfReadAll(benchmark::State& state)
{
    const bool bdf = state.range(0) == 1;
    auto r = open(bdf);
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
    state.counters["samples"] = benchmark::Counter(dataSamples(*r), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_EdfReadAll)
    ->ArgNames({"bdf", "threads"})
    ->Args({0, 1})
    ->Args({0, 2})
    ->Args({1, 1})
    ->Args({1, 2})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Windows of 10 s at random places: one channel of 64, or all 64; one thread.
void BM_EdfWindow10s(benchmark::State& state)
{
    auto r = open(false);
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
BENCHMARK(BM_EdfWindow10s)->ArgName("channels")->Arg(1)->Arg(64)->Unit(benchmark::kMicrosecond)->UseRealTime();

// Kernels on 64 Ki samples (in L2), per instruction set (plain loops, the xsimd baseline, AVX2; a level this CPU does
// not run is skipped), against the floor: memcpy (or memset) of the output.
constexpr std::size_t kKernelSamples = 1 << 16;
constexpr lv::core::SimdLevel kLevels[] = {lv::core::SimdLevel::Scalar, lv::core::SimdLevel::Sse2,
                                           lv::core::SimdLevel::Avx2};

std::vector<std::uint8_t> randomBytes(std::size_t n)
{
    std::vector<std::uint8_t> b(n);
    std::mt19937 rng(1);
    for (auto& v : b) v = static_cast<std::uint8_t>(rng());
    return b;
}

// The kernels of level argument `arg` (1..3), or nullopt (skipped) when this CPU does not run it; 0 is the floor.
std::optional<lv::core::SampleKernelSet> kernelsOf(benchmark::State& state)
{
    const auto arg = static_cast<std::size_t>(state.range(0));
    if (arg == 0) {
        state.SetLabel("floor");
        return std::nullopt;
    }
    const lv::core::SimdLevel level = kLevels[arg - 1];
    state.SetLabel(std::string(lv::core::simdLevelName(level)));
    return lv::core::sampleKernelsFor(level);
}

void widenBench(benchmark::State& state, std::size_t width)
{
    const auto in = randomBytes(width * kKernelSamples);
    std::vector<std::int32_t> out(kKernelSamples);
    if (state.range(0) != 0 && !lv::core::cpuRuns(kLevels[state.range(0) - 1])) return state.SkipWithError("no CPU");
    const auto kernels = kernelsOf(state);
    const std::vector<std::int32_t> copy(kKernelSamples, 1); // the floor's source: as many bytes as the output
    for (auto _ : state) {
        if (!kernels)
            std::memcpy(out.data(), copy.data(), out.size() * sizeof(std::int32_t));
        else
            (width == 2 ? kernels->widenInt16Le : kernels->widenInt24Le)(in.data(), kKernelSamples, out.data());
        benchmark::ClobberMemory();
    }
    state.counters["samples"] = benchmark::Counter(kKernelSamples, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Widen16(benchmark::State& state) { widenBench(state, 2); }
void BM_Widen24(benchmark::State& state) { widenBench(state, 3); }
BENCHMARK(BM_Widen16)->ArgName("level")->DenseRange(0, 3);
BENCHMARK(BM_Widen24)->ArgName("level")->DenseRange(0, 3);

void BM_CountsToPhysical(benchmark::State& state)
{
    std::vector<std::int32_t> in(kKernelSamples);
    std::mt19937 rng(2);
    for (auto& v : in) v = static_cast<std::int32_t>(rng() % 65536) - 32768;
    std::vector<double> out(kKernelSamples);
    if (state.range(0) != 0 && !lv::core::cpuRuns(kLevels[state.range(0) - 1])) return state.SkipWithError("no CPU");
    const auto kernels = kernelsOf(state);
    for (auto _ : state) {
        if (!kernels)
            std::memset(out.data(), 0, out.size() * sizeof(double));
        else
            kernels->countsToPhysical(in.data(), kKernelSamples, 0.1, -3.0, out.data());
        benchmark::ClobberMemory();
    }
    state.counters["samples"] = benchmark::Counter(kKernelSamples, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_CountsToPhysical)->ArgName("level")->DenseRange(0, 3);

} // namespace
