// Clinical review on cached MEF 3.0 sessions: a page turn of 64 channels x 10 s raw, through a bipolar montage, and
// through the montage with HP 0.5 + LP 70 + notch 50 (zero-phase, with settling margins), beside the floor (memcpy
// of the page); and the spectrogram of one channel of 24 h at 256 Hz on 1 and 2 threads beside a plain read of it.
#include "BenchSession.h"

#include "core/Recording.h"
#include "decode/ThreadPool.h"
#include "filter/FilterSpec.h"
#include "filter/FilteredRecording.h"
#include "filter/Filtering.h"
#include "formats/mef3/MefRecording.h"
#include "montage/MontageRecording.h"
#include "spectrum/Spectrogram.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <span>
#include <vector>

namespace {

namespace mef3 = lv::formats::mef3;
using lv::core::ReadControl;

constexpr int kChannels = 64;
constexpr double kPageSeconds = 10;

const lv::bench::BenchSession& pageSession()
{
    static const lv::bench::BenchSession s = [] {
        lv::bench::SessionSpec spec;
        spec.channels = kChannels;
        spec.seconds = 3600;
        lv::bench::BenchSession written = lv::bench::ensureSession(spec);
        lv::bench::verifySession(written); // also warms the page cache
        return written;
    }();
    return s;
}

const lv::bench::BenchSession& daySession()
{
    static const lv::bench::BenchSession s = [] {
        lv::bench::SessionSpec spec;
        spec.channels = 1;
        spec.seconds = 24 * 3600.0;
        lv::bench::BenchSession written = lv::bench::ensureSession(spec);
        lv::bench::verifySession(written);
        return written;
    }();
    return s;
}

std::unique_ptr<lv::core::Recording> open(const lv::bench::BenchSession& s)
{
    auto opened = mef3::openMef3(s.path, {});
    if (!opened) {
        std::fprintf(stderr, "openMef3 failed: %s\n", opened.error().describe().c_str());
        std::abort();
    }
    return std::move(*opened);
}

// Channel i minus channel i + 1 (the last minus the first): 64 bipolar derivations.
lv::montage::Montage bipolar(const lv::core::RecordingInfo& info)
{
    lv::montage::Montage m{"bipolar", {}};
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        const std::string& a = info.channels[c].name;
        const std::string& b = info.channels[(c + 1) % info.channels.size()].name;
        m.derivations.push_back({a + "-" + b, "", "EEG", {{a, 1}, {b, -1}}, {}});
    }
    return m;
}

enum class Path { Raw, Montage, MontageFiltered };

std::unique_ptr<lv::core::Recording> pagePath(Path path)
{
    auto recording = open(pageSession());
    if (path == Path::Raw) return recording;
    const lv::montage::Montage m = bipolar(recording->info());
    auto derived = lv::montage::MontageRecording::create(std::move(recording), m);
    if (!derived) std::abort();
    if (path == Path::Montage) return std::move(*derived);
    std::vector<std::size_t> all(kChannels);
    for (std::size_t c = 0; c < all.size(); ++c) all[c] = c;
    auto filtered = lv::filter::FilteredRecording::create(std::move(*derived),
                                                          *lv::filter::parseFilterSpec("hp=0.5,lp=70,notch=50"), all);
    if (!filtered) std::abort();
    return std::move(*filtered);
}

// Consecutive 10 s pages of all 64 channels (wrapping over the hour), each read whole: p50 and p95 per page.
void BM_PageTurn(benchmark::State& state)
{
    auto recording = pagePath(static_cast<Path>(state.range(0)));
    const lv::core::RecordingInfo& info = recording->info();
    lv::decode::ThreadPool pool(2);
    ReadControl control;
    control.runner = &pool;
    const auto page = static_cast<std::int64_t>(kPageSeconds * info.channels[0].fs);
    const std::int64_t pages = info.channels[0].gridLength / page - 2;
    std::vector<std::vector<std::int32_t>> buffers(info.channels.size(), std::vector<std::int32_t>(page));
    std::vector<lv::core::RawSlice> slices(info.channels.size());
    std::vector<double> ms;
    std::int64_t k = 1;
    for (auto _ : state) {
        for (std::size_t c = 0; c < slices.size(); ++c) slices[c] = {c, (k % pages + 1) * page, buffers[c]};
        const auto t0 = std::chrono::steady_clock::now();
        const lv::core::Status s = recording->readRaw(slices, control);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        if (!s.ok()) state.SkipWithError(s.error().describe().c_str());
        ++k;
    }
    std::sort(ms.begin(), ms.end());
    state.counters["p50_ms"] = ms[ms.size() / 2];
    state.counters["p95_ms"] = ms[std::min(ms.size() - 1, ms.size() * 95 / 100)];
}
BENCHMARK(BM_PageTurn)
    ->ArgName("raw0_montage1_filtered2")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_Floor_MemcpyPage(benchmark::State& state)
{
    const std::size_t bytes = kChannels * static_cast<std::size_t>(kPageSeconds * 256) * sizeof(std::int32_t);
    std::vector<char> from(bytes, 1), to(bytes);
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), bytes);
        benchmark::DoNotOptimize(to.data());
        benchmark::ClobberMemory();
    }
}
BENCHMARK(BM_Floor_MemcpyPage)->Unit(benchmark::kMicrosecond)->UseRealTime();

// The display filter of a page turn alone: 64 lanes of a 10 s page at 256 Hz with the settling margins of
// HP 0.5 LP 70 N50 (2 x 1,050 samples), zero-phase, one lane at a time (/0) or side by side in SIMD lanes (/1).
void BM_FilterPage(benchmark::State& state)
{
    auto spec = lv::filter::parseFilterSpec("hp=0.5,lp=70,notch=50");
    const lv::filter::Sos sos = *lv::filter::designFilter(*spec, 256);
    const std::size_t length = 2560 + 2 * static_cast<std::size_t>(lv::filter::settleSamples(sos));
    std::mt19937 random(1);
    std::normal_distribution<double> noise(0, 20);
    std::vector<std::vector<double>> source(64, std::vector<double>(length));
    for (std::vector<double>& lane : source)
        for (double& v : lane) v = noise(random);
    std::vector<std::vector<double>> lanes = source;
    for (auto _ : state) {
        for (std::size_t l = 0; l < lanes.size(); ++l) std::copy(source[l].begin(), source[l].end(), lanes[l].begin());
        if (state.range(0) == 0) {
            for (std::vector<double>& lane : lanes) lv::filter::filterRuns(sos, lane, lv::filter::Phase::Zero);
        } else {
            std::vector<std::span<double>> spans(lanes.begin(), lanes.end());
            lv::filter::filterRunsTogether(sos, spans, lv::filter::Phase::Zero);
        }
        benchmark::DoNotOptimize(lanes.front().data());
    }
}
BENCHMARK(BM_FilterPage)->ArgName("together")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// The whole day of one channel: 4 s columns of 2 s Hann segments, half overlapping.
void BM_Spectrogram24h(benchmark::State& state)
{
    auto recording = open(daySession());
    lv::decode::ThreadPool pool(static_cast<std::size_t>(state.range(0)));
    ReadControl control;
    control.runner = &pool;
    const lv::core::RecordingInfo& info = recording->info();
    for (auto _ : state) {
        auto s = lv::spectrum::computeSpectrogram(*recording, 0, {info.start, info.end},
                                                  {4, {512, 0.5, lv::spectrum::Window::Hann}}, control);
        if (!s) state.SkipWithError(s.error().describe().c_str());
        benchmark::DoNotOptimize(s);
    }
}
BENCHMARK(BM_Spectrogram24h)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The floor of the spectrogram: the same day read (decoded) in the same 2 Mi-sample chunks, nothing computed.
void BM_Floor_ReadDay(benchmark::State& state)
{
    auto recording = open(daySession());
    lv::decode::ThreadPool pool(static_cast<std::size_t>(state.range(0)));
    ReadControl control;
    control.runner = &pool;
    const std::int64_t length = recording->info().channels[0].gridLength;
    std::vector<std::int32_t> buffer(std::size_t{1} << 21);
    for (auto _ : state) {
        for (std::int64_t at = 0; at < length; at += std::ssize(buffer)) {
            const lv::core::RawSlice slice{0, at,
                                           std::span(buffer).first(static_cast<std::size_t>(
                                               std::min<std::int64_t>(std::ssize(buffer), length - at)))};
            const lv::core::Status s = recording->readRaw({&slice, 1}, control);
            if (!s.ok()) state.SkipWithError(s.error().describe().c_str());
        }
        benchmark::DoNotOptimize(buffer.data());
    }
}
BENCHMARK(BM_Floor_ReadDay)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
