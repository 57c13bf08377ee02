// libFuzzer target: the sample grid (core::SampleGrid) and block placement (mef3::placeBlocks,
// firstBlockEndingAfter) that every MEF read, `stats` and `convert` go through, on arbitrary block times and
// counts and any sampling frequency MefLoad lets through (finite, > 0).
//
// Input: f64 fs, then 13-byte blocks (i64 start time, u32 sample count, u8 segment); the first byte after fs
// picks the segment count (1-4).
#include "core/Time.h"
#include "formats/mef3/BlockMap.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace mef3 = lv::formats::mef3;

namespace {

template <typename T>
T take(const std::uint8_t*& p, const std::uint8_t* end)
{
    T v{};
    if (end - p >= static_cast<std::ptrdiff_t>(sizeof(T))) std::memcpy(&v, p, sizeof(T));
    p += std::min<std::ptrdiff_t>(end - p, sizeof(T));
    return v;
}

// The grid calls a read makes for a time: nearest and first index, and the time of that index.
void probe(const lv::core::SampleGrid& grid, lv::core::Uutc t)
{
    const std::int64_t first = grid.firstIndexAtOrAfter(t);
    (void)grid.timeOf(first);
    (void)grid.nearestIndex(t);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::uint8_t* p = data;
    const std::uint8_t* end = data + size;
    const double fs = take<double>(p, end);
    if (!(fs > 0.0) || !std::isfinite(fs)) return 0; // MefLoad refuses these
    const std::size_t segments = 1 + take<std::uint8_t>(p, end) % 4;
    std::vector<mef3::BlockRef> blocks;
    while (end - p >= 13 && blocks.size() < 256) {
        mef3::BlockRef b;
        b.startTime = take<std::int64_t>(p, end);
        b.sampleCount = take<std::uint32_t>(p, end);
        b.segment = take<std::uint8_t>(p, end) % segments;
        blocks.push_back(b);
    }
    const mef3::BlockPlacement placement = mef3::placeBlocks(blocks, fs, segments);
    const lv::core::SampleGrid grid{placement.origin, fs};
    const lv::core::Uutc last = grid.timeOf(placement.gridLength);
    probe(grid, placement.origin);
    probe(grid, last);
    for (const lv::core::TimeRange& g : placement.gaps) {
        probe(grid, g.start);
        probe(grid, g.end);
    }
    for (const lv::core::TimeRange& s : placement.segments) probe(grid, s.start);
    (void)mef3::firstBlockEndingAfter(blocks, placement.gridLength / 2);
    (void)mef3::firstBlockEndingAfter(blocks, placement.gridLength);
    return 0;
}
