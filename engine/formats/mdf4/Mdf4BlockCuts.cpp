// Blocks cut run by run: whole reduction intervals packed while they fit, the rest in pieces of the largest size.
#include "formats/mdf4/Mdf4BlockCuts.h"

#include <algorithm>

namespace lv::formats::mdf4 {

namespace {

const std::vector<std::int64_t> kNoStarts;

struct Cutter {
    BlockCuts& out;
    std::int64_t most;
    const ReductionData* reduction;
    std::int64_t records; // in the group: the last interval ends there

    std::int64_t intervalEnd(std::size_t k) const
    {
        return k + 1 < reduction->intervals() ? reduction->firstRecord[k + 1] : records;
    }

    void emit(const core::RasterRun& run, std::int64_t from, std::int64_t to, std::pair<std::size_t, std::size_t> whole)
    {
        out.blocks.push_back(core::BlockSpan{run.firstGrid + (from - run.firstRecord),
                                             static_cast<std::uint32_t>(to - from), 0, 0, false});
        out.firstRecord.push_back(from);
        out.intervals.push_back(whole);
    }

    // Whole intervals from `from` (the first record of interval k) while they fit in the run and the size; the end.
    std::int64_t packIntervals(const core::RasterRun& run, std::int64_t from, std::size_t k, std::int64_t end)
    {
        std::size_t last = k;
        std::int64_t to = from;
        while (last < reduction->intervals() && intervalEnd(last) <= end && intervalEnd(last) - from <= most)
            to = intervalEnd(last++);
        if (to > from) emit(run, from, to, {k, last});
        return to;
    }

    void cutRun(const core::RasterRun& run)
    {
        const std::int64_t end = run.firstRecord + run.count;
        const std::vector<std::int64_t>& starts = reduction ? reduction->firstRecord : kNoStarts;
        for (std::int64_t at = run.firstRecord; at < end;) {
            const auto next = std::upper_bound(starts.begin(), starts.end(), at);
            if (next != starts.begin() && *(next - 1) == at) { // an interval starts here
                const std::int64_t to =
                    packIntervals(run, at, static_cast<std::size_t>(next - 1 - starts.begin()), end);
                if (to > at) {
                    at = to;
                    continue;
                }
            }
            const std::int64_t stop = std::min({end, at + most, next == starts.end() ? end : *next});
            emit(run, at, stop, {0, 0});
            at = stop;
        }
    }
};

} // namespace

BlockCuts cutBlocks(const core::Raster& raster, std::uint64_t recordBytes, const ReductionData* reduction)
{
    BlockCuts cuts;
    const auto most = static_cast<std::int64_t>(
        std::clamp<std::uint64_t>(kBlockBytes / std::max<std::uint64_t>(recordBytes, 1), 64, 65536));
    std::int64_t records = 0;
    for (const core::RasterRun& run : raster.runs) records = std::max(records, run.firstRecord + run.count);
    Cutter cutter{cuts, most, reduction, records};
    for (const core::RasterRun& run : raster.runs) cutter.cutRun(run);
    return cuts;
}

} // namespace lv::formats::mdf4
