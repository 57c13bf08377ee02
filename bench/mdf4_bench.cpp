// MDF 4 open on asammdf's benchmark shape (183 data groups, 36,424 channels; transposed-deflate DZ or plain DT),
// in one process, as openMdf4 opens it (threads:0) and on one thread (threads:1), against its floor: a plain read
// of the file. The target: open under 50 ms.
#include "Mdf4Shape.h"
#include "PlainRead.h"
#include "Scenario.h"

#include "formats/mdf4/Mdf4Recording.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>

namespace {

namespace mdf4 = lv::formats::mdf4;

std::string shapeFile(bool dz)
{
    const std::string path = std::string("/tmp/longview-bench/hub/asam-shape") + (dz ? "" : "-dt") + ".mf4";
    std::filesystem::create_directories("/tmp/longview-bench/hub");
    lv::bench::writeAsamShape(path, dz);
    return path;
}

// threads 0: as openMdf4(path) opens it (a pool of its own for a large file); 1: on this thread only.
std::unique_ptr<mdf4::Mdf4Recording> open(const std::string& path, int threads = 0)
{
    auto file = lv::io::openFile(path);
    if (!file) {
        std::fprintf(stderr, "%s\n", file.error().describe().c_str());
        std::abort();
    }
    auto r = threads == 1 ? mdf4::openMdf4(*file, nullptr) : mdf4::openMdf4(*file);
    if (!r) {
        std::fprintf(stderr, "%s\n", r.error().describe().c_str());
        std::abort();
    }
    return std::move(*r);
}

void BM_Mdf4Open(benchmark::State& state)
{
    const std::string path = shapeFile(state.range(0) != 0);
    std::size_t channels = 0;
    for (auto _ : state) {
        auto r = open(path, static_cast<int>(state.range(1)));
        channels = r->info().channels.size();
        state.PauseTiming(); // closing is not opening
        r.reset();
        state.ResumeTiming();
    }
    state.SetLabel(std::to_string(channels) + " channels, " + std::to_string(std::filesystem::file_size(path) >> 20) +
                   " MiB");
}
BENCHMARK(BM_Mdf4Open)
    ->ArgNames({"dz", "threads"})
    ->ArgsProduct({{1, 0}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Floor: the whole file read with pread in 1 MiB chunks into one buffer (page cache warm).
void BM_Mdf4FloorPread(benchmark::State& state)
{
    const std::string path = shapeFile(state.range(0) != 0);
    lv::bench::PlainRead file(path);
    for (auto _ : state) benchmark::DoNotOptimize(file.once());
}
BENCHMARK(BM_Mdf4FloorPread)->ArgName("dz")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

// Scenario.h's failure for Mdf4Shape: this program has no cell to report it in.
void lv::bench::fail(const std::string& what)
{
    std::fprintf(stderr, "longview-bench-mdf4: %s\n", what.c_str());
    std::exit(1);
}
