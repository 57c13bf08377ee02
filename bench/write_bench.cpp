// Writer benchmarks: session write throughput (1 and 2 threads, 1 s and 10 s blocks) against a plain write of
// the same bytes, and the latency of 144 ten-minute appends of 16 channels at full and fast durability.
#include "EegSignal.h"

#include "decode/ThreadPool.h"
#include "formats/mef3/SessionWriter.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numeric>

namespace {

namespace fs = std::filesystem;
namespace mef3 = lv::formats::mef3;

constexpr int kChannels = 16;
constexpr double kFs = 256.0;
constexpr std::int64_t kSamples = 2 * 3600 * 256; // two hours per channel
constexpr std::int64_t kStart = 1704096000000000;
const char* const kRoot = "/tmp/longview-bench/write";

// The same signal as the session benchmarks (seeds 1000 + channel, 0.1 uV per count).
const std::vector<std::vector<std::int32_t>>& data()
{
    static const auto d = [] {
        std::vector<std::vector<std::int32_t>> channels;
        for (int c = 0; c < kChannels; ++c)
            channels.push_back(lv::bench::quantise(lv::bench::eegMicrovolts(kSamples, kFs, 1000 + c), 0.1));
        return channels;
    }();
    return d;
}

[[noreturn]] void fail(const lv::core::Error& e)
{
    std::fprintf(stderr, "benchmark failed: %s\n", e.describe().c_str());
    std::abort();
}

std::string freshPath(const char* name)
{
    fs::create_directories(kRoot);
    const std::string path = std::string(kRoot) + "/" + name;
    fs::remove_all(path);
    return path;
}

std::uint64_t dataBytes(const std::string& session)
{
    std::uint64_t bytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(session))
        if (e.path().extension() == ".tdat") bytes += e.file_size();
    return bytes;
}

std::unique_ptr<mef3::SessionWriter> newSession(const std::string& path, double blockSeconds,
                                                lv::core::TaskRunner* runner, mef3::Durability durability)
{
    auto writer = mef3::SessionWriter::create(path, {blockSeconds, "", "", runner, durability});
    if (!writer) fail(writer.error());
    for (int c = 0; c < kChannels; ++c)
        if (auto added = (*writer)->addChannel({"ch" + std::to_string(c + 1), kFs, "uV", 0.1, ""}); !added)
            fail(added.error());
    return std::move(*writer);
}

// Args: threads, block length in tenths of a second.
void BM_WriteSession(benchmark::State& state)
{
    const auto& d = data();
    lv::decode::ThreadPool pool(static_cast<std::size_t>(state.range(0)));
    const double blockSeconds = static_cast<double>(state.range(1)) / 10.0;
    const lv::core::SampleGrid grid{kStart, kFs};
    std::string path;
    for (auto _ : state) {
        state.PauseTiming();
        path = freshPath("throughput.mefd");
        state.ResumeTiming();
        auto writer = newSession(path, blockSeconds, &pool, mef3::Durability::Fast);
        for (int c = 0; c < kChannels; ++c)
            if (auto s = writer->append(static_cast<std::size_t>(c), grid, 0, d[static_cast<std::size_t>(c)]); !s)
                fail(s.error());
        if (auto s = writer->finish(); !s) fail(s.error());
    }
    const double samples = static_cast<double>(kSamples) * kChannels;
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * samples));
    state.counters["bytes_per_sample"] = static_cast<double>(dataBytes(path)) / samples;
}
BENCHMARK(BM_WriteSession)->ArgsProduct({{1, 2}, {10, 20, 50, 100, 300}})->Unit(benchmark::kMillisecond)->UseRealTime();

// The floor: the input read once (as the encoder must) and the encoded size written to a file and synced
// at close as the writer does.
void BM_WriteFloor(benchmark::State& state)
{
    const auto& d = data();
    const std::size_t bytes = static_cast<std::size_t>(1.1822 * kSamples * kChannels); // meflib's size, 10 s blocks
    std::vector<char> out(1 << 20);
    for (auto _ : state) {
        std::int64_t sum = 0;
        for (const auto& channel : d) sum = std::accumulate(channel.begin(), channel.end(), sum);
        benchmark::DoNotOptimize(sum);
        std::FILE* f = std::fopen(freshPath("floor.bin").c_str(), "wb");
        for (std::size_t done = 0; done < bytes; done += out.size()) std::fwrite(out.data(), 1, out.size(), f);
        std::fflush(f);
        std::fclose(f);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kSamples * kChannels);
}
BENCHMARK(BM_WriteFloor)->Unit(benchmark::kMillisecond)->UseRealTime();

// Arg: 1 full durability, 0 fast. 144 appends of ten minutes of 16 channels (one day), 10 s blocks.
void BM_AppendLatency(benchmark::State& state)
{
    const auto& d = data();
    const auto durability = state.range(0) ? mef3::Durability::Full : mef3::Durability::Fast;
    lv::decode::ThreadPool pool;
    const lv::core::SampleGrid grid{kStart, kFs};
    constexpr std::int64_t kAppend = 600 * 256;
    constexpr int kAppends = 144;
    std::vector<double> ms(kAppends);
    for (auto _ : state) {
        auto writer = newSession(freshPath("append.mefd"), 10.0, &pool, durability);
        for (int a = 0; a < kAppends; ++a) {
            const auto began = std::chrono::steady_clock::now();
            const std::int64_t from = (a % (kSamples / kAppend)) * kAppend; // the two hours, over and over
            for (int c = 0; c < kChannels; ++c) {
                const auto slice =
                    std::span(d[static_cast<std::size_t>(c)]).subspan(static_cast<std::size_t>(from), kAppend);
                if (auto s = writer->append(static_cast<std::size_t>(c), grid, a * kAppend, slice); !s) fail(s.error());
            }
            if (auto s = writer->commit(); !s) fail(s.error());
            ms[static_cast<std::size_t>(a)] =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
        }
        if (auto s = writer->finish(); !s) fail(s.error());
    }
    const auto mean = [&](int from, int to) {
        return std::accumulate(ms.begin() + from, ms.begin() + to, 0.0) / (to - from);
    };
    state.counters["first10_ms"] = mean(0, 10);
    state.counters["last10_ms"] = mean(kAppends - 10, kAppends);
    state.counters["growth"] = mean(kAppends - 10, kAppends) / mean(0, 10);
    state.counters["mean_ms"] = mean(0, kAppends);
}
BENCHMARK(BM_AppendLatency)->Arg(1)->Arg(0)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
