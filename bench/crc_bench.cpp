// MEF CRC-32 (Koopman, slicing-by-8) throughput over RED-block-sized buffers, against memcpy of the same bytes.
#include "formats/mef3/Crc32.h"

#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

namespace {

namespace mef3 = lv::formats::mef3;

std::vector<std::uint8_t> randomBytes(std::size_t n)
{
    std::vector<std::uint8_t> bytes(n);
    std::mt19937 rng(7);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
    return bytes;
}

void Crc32(benchmark::State& state)
{
    const auto bytes = randomBytes(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) benchmark::DoNotOptimize(mef3::crc32(bytes));
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

void Memcpy(benchmark::State& state)
{
    const auto bytes = randomBytes(static_cast<std::size_t>(state.range(0)));
    std::vector<std::uint8_t> copy(bytes.size());
    for (auto _ : state) {
        std::memcpy(copy.data(), bytes.data(), bytes.size());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}

// 2.5 KiB: a 1 s block of 256 Hz EEG; 25 KiB: a 10 s block; 1 MiB: one read job.
BENCHMARK(Crc32)->Arg(2560)->Arg(25600)->Arg(1 << 20);
BENCHMARK(Memcpy)->Arg(2560)->Arg(25600)->Arg(1 << 20);

} // namespace
