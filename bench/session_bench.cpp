// Session-level benchmarks on a cached 16 ch x 2 h MEF 3.0 session: open, 5-minute window, full read, and floors.
#include "BenchSession.h"

#include "core/Recording.h"
#include "decode/ThreadPool.h"
#include "formats/mef3/MefRecording.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <numeric>
#include <sys/mman.h>
#include <unistd.h>

namespace {

namespace mef3 = lv::formats::mef3;
using lv::core::ReadControl;
using lv::core::TimeRange;

constexpr double kFullReadChunkSeconds = 600.0; // the full read goes 10 minutes (all channels) at a time

// The default session, written or found in the cache, verified once per process (which also warms the page cache).
const lv::bench::BenchSession& session()
{
    static const lv::bench::BenchSession s = [] {
        lv::bench::BenchSession written = lv::bench::ensureSession(lv::bench::SessionSpec{});
        lv::bench::verifySession(written);
        return written;
    }();
    return s;
}

std::unique_ptr<mef3::MefRecording> openSession()
{
    auto opened = mef3::openMef3(session().path, {});
    if (!opened) {
        std::fprintf(stderr, "openMef3 failed: %s\n", opened.error().describe().c_str());
        std::abort();
    }
    return std::move(*opened);
}

std::vector<std::size_t> allChannels(const lv::core::RecordingInfo& info)
{
    std::vector<std::size_t> channels(info.channels.size());
    std::iota(channels.begin(), channels.end(), std::size_t{0});
    return channels;
}

double totalSamples() { return static_cast<double>(session().samplesPerChannel) * session().spec.channels; }

void BM_Open(benchmark::State& state)
{
    const std::string& path = session().path;
    for (auto _ : state) {
        auto opened = mef3::openMef3(path, {});
        if (!opened) state.SkipWithError(opened.error().describe().c_str());
        benchmark::DoNotOptimize(opened);
    }
}
BENCHMARK(BM_Open)->Unit(benchmark::kMillisecond)->UseRealTime();

// 5-minute windows of every channel at reproducible pseudo-random places, read on `threads` threads (0: every core).
struct WindowWalk {
    static constexpr lv::core::Uutc kWindow = 5 * 60 * 1000000ll;
    explicit WindowWalk(std::size_t threads = 0) : pool(threads) {}
    std::unique_ptr<mef3::MefRecording> recording = openSession();
    std::vector<std::size_t> channels = allChannels(recording->info());
    lv::decode::ThreadPool pool;
    std::uint64_t seed = 0x9E3779B97F4A7C15ull;

    TimeRange next() // an LCG: the same walk every run
    {
        const lv::core::RecordingInfo& info = recording->info();
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const lv::core::Uutc start =
            info.start +
            static_cast<lv::core::Uutc>((seed >> 11) % static_cast<std::uint64_t>(info.end - info.start - kWindow));
        return {start, start + kWindow};
    }
    auto read(TimeRange range)
    {
        ReadControl control;
        control.runner = &pool;
        return lv::core::readRange(*recording, channels, range, control);
    }
};

// A 5-minute window of all 16 channels at a pseudo-random position each iteration, on 1 or 2 threads (the figure
// on a busy machine: bench/README.md).
void BM_Window5min_16ch(benchmark::State& state)
{
    WindowWalk walk(static_cast<std::size_t>(state.range(0)));
    std::int64_t samples = 0;
    for (auto _ : state) {
        auto read = walk.read(walk.next());
        if (!read) {
            state.SkipWithError(read.error().describe().c_str());
            return;
        }
        for (const auto& c : *read) samples += static_cast<std::int64_t>(c.raw.size());
        benchmark::DoNotOptimize(read);
    }
    state.counters["samples"] = benchmark::Counter(static_cast<double>(samples), benchmark::Counter::kIsRate);
    state.counters["threads"] = static_cast<double>(walk.pool.threadCount());
}
BENCHMARK(BM_Window5min_16ch)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Drops every data file of the session from the page cache (posix_fadvise); returns the fraction of pages still
// resident afterwards (mincore), which must be 0 for a cold measurement.
double evictDataFiles()
{
    std::size_t pages = 0, resident = 0;
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    for (const std::string& file : session().dataFiles) {
        const int fd = ::open(file.c_str(), O_RDONLY);
        if (fd < 0) std::abort();
        ::fdatasync(fd);
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        const off_t size = ::lseek(fd, 0, SEEK_END);
        if (size > 0) {
            void* map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
            std::vector<unsigned char> in((static_cast<std::size_t>(size) + pageSize - 1) / pageSize);
            ::mincore(map, static_cast<std::size_t>(size), in.data());
            for (unsigned char c : in) resident += c & 1;
            pages += in.size();
            ::munmap(map, static_cast<std::size_t>(size));
        }
        ::close(fd);
    }
    return pages ? static_cast<double>(resident) / static_cast<double>(pages) : 0.0;
}

// The 5-minute window of 16 channels with its data files evicted before each read (metadata open and warm):
// the "cold small page" against mef3io's 85-100 ms.
void BM_Window5min_16chCold(benchmark::State& state)
{
    WindowWalk walk;
    double resident = 0;
    for (auto _ : state) {
        state.PauseTiming();
        resident = std::max(resident, evictDataFiles());
        const TimeRange window = walk.next();
        state.ResumeTiming();
        auto read = walk.read(window);
        if (!read) {
            state.SkipWithError(read.error().describe().c_str());
            return;
        }
        benchmark::DoNotOptimize(read);
    }
    state.counters["residentAfterEvict"] = resident;
}
BENCHMARK(BM_Window5min_16chCold)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(200);

// Every sample of every channel through readRange, 10 minutes at a time, on a pool of state.range(0) threads.
void BM_FullRead(benchmark::State& state)
{
    auto recording = openSession();
    const lv::core::RecordingInfo& info = recording->info();
    const std::vector<std::size_t> channels = allChannels(info);
    const std::vector<TimeRange> chunks = lv::bench::timeChunks(info, kFullReadChunkSeconds);
    lv::decode::ThreadPool pool(static_cast<std::size_t>(state.range(0)));
    ReadControl control;
    control.runner = &pool;
    for (auto _ : state) {
        std::int64_t samples = 0;
        for (const TimeRange& chunk : chunks) {
            auto read = lv::core::readRange(*recording, channels, chunk, control);
            if (!read) {
                state.SkipWithError(read.error().describe().c_str());
                return;
            }
            for (const auto& c : *read) samples += static_cast<std::int64_t>(c.raw.size());
        }
        if (samples != static_cast<std::int64_t>(totalSamples())) state.SkipWithError("full read is incomplete");
    }
    state.counters["samples"] = benchmark::Counter(totalSamples(), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_FullRead)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The same full read through readRaw into caller-owned buffers reused for every chunk: without readRange's
// per-chunk allocation and initialisation, the difference to BM_FullRead is what they cost.
void BM_FullReadReuse(benchmark::State& state)
{
    auto recording = openSession();
    const lv::core::RecordingInfo& info = recording->info();
    const std::vector<TimeRange> chunks = lv::bench::timeChunks(info, kFullReadChunkSeconds);
    lv::decode::ThreadPool pool(static_cast<std::size_t>(state.range(0)));
    ReadControl control;
    control.runner = &pool;
    std::vector<std::vector<std::int32_t>> buffers(info.channels.size());
    std::vector<lv::core::RawSlice> slices(info.channels.size());
    for (auto _ : state) {
        std::int64_t samples = 0;
        for (const TimeRange& chunk : chunks) {
            for (std::size_t c = 0; c < slices.size(); ++c) {
                const lv::core::SampleSpan span = lv::core::sampleSpan(info.channels[c], chunk);
                buffers[c].resize(static_cast<std::size_t>(span.count));
                slices[c] = lv::core::RawSlice{c, span.first, buffers[c]};
                samples += span.count;
            }
            const lv::core::Status status = recording->readRaw(slices, control);
            if (!status.ok()) {
                state.SkipWithError(status.error().describe().c_str());
                return;
            }
        }
        if (samples != static_cast<std::int64_t>(totalSamples())) state.SkipWithError("full read is incomplete");
    }
    state.counters["samples"] = benchmark::Counter(totalSamples(), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_FullReadReuse)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Floor for the full read's I/O: every .tdat byte read with pread into a 1 MiB buffer (warm page cache).
void BM_Floor_PreadTdat(benchmark::State& state)
{
    std::vector<int> fds;
    for (const std::string& file : session().dataFiles) fds.push_back(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
    std::vector<std::uint8_t> buffer(1u << 20);
    std::int64_t bytes = 0;
    for (auto _ : state) {
        for (int fd : fds) {
            off_t at = 0;
            for (ssize_t n; (n = ::pread(fd, buffer.data(), buffer.size(), at)) > 0;) at += n;
            bytes += at;
        }
        benchmark::DoNotOptimize(buffer.data());
    }
    for (int fd : fds) ::close(fd);
    if (bytes == 0) state.SkipWithError("no .tdat bytes read");
    state.SetBytesProcessed(bytes);
    state.counters["samples"] = benchmark::Counter(totalSamples(), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Floor_PreadTdat)->Unit(benchmark::kMillisecond)->UseRealTime();

// Floor for the full read's output: one memcpy of every decoded int32 sample.
void BM_Floor_MemcpyOutput(benchmark::State& state)
{
    const auto count = static_cast<std::size_t>(totalSamples());
    std::vector<std::int32_t> from(count, 1), to(count, 0);
    for (auto _ : state) {
        std::memcpy(to.data(), from.data(), count * sizeof(std::int32_t));
        benchmark::DoNotOptimize(to.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * count * sizeof(std::int32_t)));
    state.counters["samples"] = benchmark::Counter(totalSamples(), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Floor_MemcpyOutput)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
