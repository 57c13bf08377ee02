// RED decode throughput on one thread (EEG-like blocks, 4 quantisation steps, 1 s and 10 s blocks) and a memcpy floor.
#include "EegSignal.h"

#include "formats/mef3/RedBlock.h"
#include "formats/mef3/RedEncoder.h"
#include "formats/mef3/RedSymbols.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>

namespace {

namespace mef3 = lv::formats::mef3;

constexpr double kFs = 256.0;
constexpr std::size_t kChannels = 16;
constexpr std::size_t kSamplesPerChannel = 10 * 60 * 256; // 10 minutes
constexpr std::size_t kTotalSamples = kChannels * kSamplesPerChannel;

[[noreturn]] void fail(const std::string& what)
{
    std::fprintf(stderr, "\n*** RED round-trip check FAILED: %s ***\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

// Every channel's blocks, back to back, as one in-memory set (larger than any one cache level but L3).
struct BlockSet {
    std::vector<std::uint8_t> bytes;
    std::vector<std::size_t> offsets; // block starts in `bytes`
    std::size_t samples = 0;
    std::size_t keySamples = 0;
};

const std::vector<std::vector<double>>& eegChannels()
{
    static const auto channels = [] {
        std::vector<std::vector<double>> c;
        for (std::size_t ch = 0; ch < kChannels; ++ch)
            c.push_back(lv::bench::eegMicrovolts(kSamplesPerChannel, kFs, ch + 1));
        return c;
    }();
    return channels;
}

// Decodes every block of `set` and compares with the samples it was made from; aborts on any difference.
void checkRoundTrip(const BlockSet& set, const std::vector<std::int32_t>& expected)
{
    std::vector<std::int32_t> out(expected.size());
    std::size_t at = 0;
    for (std::size_t k = 0; k < set.offsets.size(); ++k) {
        const std::span<const std::uint8_t> block(set.bytes.data() + set.offsets[k], set.bytes.size() - set.offsets[k]);
        const mef3::RedBlockHeader h = mef3::parseRedHeader(block);
        if (!mef3::redCrcOk(h, block)) fail("block " + std::to_string(k) + " has a bad CRC");
        const lv::core::Status status =
            mef3::decodeRed(h, block.first(h.blockBytes), std::span(out).subspan(at, h.sampleCount));
        if (!status.ok()) fail("block " + std::to_string(k) + ": " + status.error().message);
        for (std::size_t i = 0; i < h.sampleCount; ++i)
            if (out[at + i] != expected[at + i])
                fail("block " + std::to_string(k) + " sample " + std::to_string(i) + ": decoded " +
                     std::to_string(out[at + i]) + ", encoded " + std::to_string(expected[at + i]));
        at += h.sampleCount;
    }
    if (at != expected.size())
        fail("decoded " + std::to_string(at) + " of " + std::to_string(expected.size()) + " samples");
}

// The block set for a quantisation step (nanovolts per count) and block length, encoded and checked once.
const BlockSet& blockSet(std::int64_t stepNv, std::int64_t blockSeconds)
{
    static std::map<std::pair<std::int64_t, std::int64_t>, BlockSet> cache;
    auto [it, fresh] = cache.try_emplace({stepNv, blockSeconds});
    BlockSet& set = it->second;
    if (!fresh) return set;
    const std::size_t blockSamples = static_cast<std::size_t>(blockSeconds * kFs);
    mef3::RedEncoder encoder;
    std::vector<std::int32_t> all;
    for (const std::vector<double>& uv : eegChannels()) {
        const std::vector<std::int32_t> counts = lv::bench::quantise(uv, static_cast<double>(stepNv) / 1000.0);
        for (std::size_t first = 0; first < counts.size(); first += blockSamples) {
            const auto samples = std::span(counts).subspan(first, std::min(blockSamples, counts.size() - first));
            set.offsets.push_back(set.bytes.size());
            const auto summary = encoder.encode(samples, static_cast<std::int64_t>(first), first == 0, set.bytes);
            set.keySamples += (summary.differenceBytes - samples.size() - 4) / 4 + 1;
        }
        all.insert(all.end(), counts.begin(), counts.end());
    }
    set.samples = all.size();
    checkRoundTrip(set, all);
    return set;
}

void BM_RedDecode(benchmark::State& state)
{
    const BlockSet& set = blockSet(state.range(0), state.range(1));
    std::vector<std::int32_t> out(set.samples);
    for (auto _ : state) {
        std::size_t at = 0;
        for (std::size_t offset : set.offsets) {
            const std::span<const std::uint8_t> block(set.bytes.data() + offset, set.bytes.size() - offset);
            const mef3::RedBlockHeader h = mef3::parseRedHeader(block);
            if (!mef3::decodeRed(h, block, std::span(out).subspan(at, h.sampleCount)).ok()) {
                state.SkipWithError("decodeRed failed");
                return;
            }
            at += h.sampleCount;
        }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    const double samples = static_cast<double>(set.samples);
    state.counters["samples"] = benchmark::Counter(samples, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["bytesPerSample"] = static_cast<double>(set.bytes.size()) / samples;
    state.counters["keyFraction"] = static_cast<double>(set.keySamples) / samples;
}
// Arguments: quantisation step in nV per count (1000 = 1 uV ... 1 = 0.001 uV), block length in seconds.
BENCHMARK(BM_RedDecode)->ArgsProduct({{1000, 100, 10, 1}, {1, 10}})->ArgNames({"stepNv", "blockSec"});

// The same blocks through decodeRedBatch (several blocks decoded side by side), as the session reader does.
void BM_RedDecodeBatch(benchmark::State& state)
{
    const BlockSet& set = blockSet(state.range(0), state.range(1));
    std::vector<std::int32_t> out(set.samples);
    std::vector<mef3::RedTask> tasks;
    for (auto _ : state) {
        tasks.clear();
        std::size_t at = 0;
        for (std::size_t offset : set.offsets) {
            const std::span<const std::uint8_t> block(set.bytes.data() + offset, set.bytes.size() - offset);
            const mef3::RedBlockHeader h = mef3::parseRedHeader(block);
            tasks.push_back({h, block, std::span(out).subspan(at, h.sampleCount), {}});
            at += h.sampleCount;
        }
        mef3::decodeRedBatch(tasks);
        for (const auto& t : tasks)
            if (!t.status.ok()) {
                state.SkipWithError("decodeRedBatch failed");
                return;
            }
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.counters["samples"] =
        benchmark::Counter(static_cast<double>(set.samples), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_RedDecodeBatch)->ArgsProduct({{1000, 100, 10, 1}, {1, 10}})->ArgNames({"stepNv", "blockSec"});

// The symbol loop alone (range decoding, no samples), waves of 64 blocks as decodeRedBatch makes them, on one
// kernel: 0 scalar (two blocks side by side), 2 AVX2 (where this CPU runs it).
void BM_RedSymbols(benchmark::State& state)
{
    const BlockSet& set = blockSet(state.range(0), state.range(1));
    const auto level = state.range(2) == 2 ? lv::core::SimdLevel::Avx2 : lv::core::SimdLevel::Scalar;
    if (!lv::core::cpuRuns(level)) {
        state.SkipWithError("this CPU does not run the kernel");
        return;
    }
    std::vector<std::vector<mef3::RedLookupEntry>> tables;
    std::vector<std::vector<std::uint8_t>> symbols;
    std::vector<mef3::RedSymbolLane> lanes;
    std::size_t count = 0;
    double totals = 0;
    for (std::size_t offset : set.offsets) {
        const std::span<const std::uint8_t> block(set.bytes.data() + offset, set.bytes.size() - offset);
        const mef3::RedBlockHeader h = mef3::parseRedHeader(block);
        const std::uint32_t total = mef3::redStatisticsTotal(h);
        tables.emplace_back(total + mef3::kRedLookupSlack);
        mef3::fillRedLookup(h.statistics, tables.back().data());
        const std::uint32_t n = mef3::redSymbolCount(h);
        symbols.emplace_back(n + mef3::kRedSymbolSlack);
        lanes.push_back(mef3::startRedSymbolLane(tables.back().data(), total, block.data() + mef3::kRedHeaderBytes,
                                                 block.data() + h.blockBytes, symbols.back().data(), n));
        count += n;
        totals += total;
    }
    std::vector<mef3::RedSymbolLane> work;
    for (auto _ : state) {
        work = lanes;
        for (std::size_t first = 0; first < work.size(); first += 64)
            mef3::decodeRedSymbols(std::span(work).subspan(first, std::min<std::size_t>(64, work.size() - first)),
                                   level);
        benchmark::DoNotOptimize(symbols.data());
    }
    state.counters["symbols"] =
        benchmark::Counter(static_cast<double>(count), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["tableEntries"] = totals / static_cast<double>(lanes.size());
}
BENCHMARK(BM_RedSymbols)->ArgsProduct({{1000, 100, 10, 1}, {1, 10}, {0, 2}})->ArgNames({"stepNv", "blockSec", "simd"});

// Encoding the same counts block by block (RedEncoder::encode, as ChannelWriter does on each thread); the bytes are
// checked equal to the decode benchmarks' blocks once.
void BM_RedEncode(benchmark::State& state)
{
    const std::int64_t stepNv = state.range(0);
    const std::size_t blockSamples = static_cast<std::size_t>(state.range(1) * static_cast<std::int64_t>(kFs));
    std::vector<std::vector<std::int32_t>> channels;
    for (const std::vector<double>& uv : eegChannels())
        channels.push_back(lv::bench::quantise(uv, static_cast<double>(stepNv) / 1000.0));
    std::vector<std::uint8_t> out;
    out.reserve(kTotalSamples * 5);
    mef3::RedEncoder encoder;
    for (auto _ : state) {
        out.clear();
        for (const auto& counts : channels)
            for (std::size_t first = 0; first < counts.size(); first += blockSamples)
                encoder.encode(std::span(counts).subspan(first, std::min(blockSamples, counts.size() - first)),
                               static_cast<std::int64_t>(first), first == 0, out);
        benchmark::DoNotOptimize(out.data());
    }
    if (out != blockSet(stepNv, state.range(1)).bytes) fail("encoded bytes differ from the decode benchmarks' blocks");
    state.counters["samples"] =
        benchmark::Counter(static_cast<double>(kTotalSamples), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_RedEncode)->ArgsProduct({{1000, 100, 10, 1}, {1, 10}})->ArgNames({"stepNv", "blockSec"});

// The floor: copying as many int32 samples as BM_RedDecode produces per iteration.
void BM_Floor_Memcpy(benchmark::State& state)
{
    std::vector<std::int32_t> from(kTotalSamples, 1), to(kTotalSamples, 0);
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), kTotalSamples * sizeof(std::int32_t));
        benchmark::DoNotOptimize(to.data());
        benchmark::ClobberMemory();
    }
    state.counters["samples"] =
        benchmark::Counter(static_cast<double>(kTotalSamples), benchmark::Counter::kIsIterationInvariantRate);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kTotalSamples * sizeof(std::int32_t)));
}
BENCHMARK(BM_Floor_Memcpy);

} // namespace
