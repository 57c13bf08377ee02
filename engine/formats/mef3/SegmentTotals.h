// Running totals of one segment, kept as meflib keeps them in time-series metadata section 2.
#pragma once

#include "core/Time.h"
#include "formats/mef3/TimeSeriesIndex.h"

#include <cstdint>

namespace lv::formats::mef3 {

struct SegmentTotals {
    std::int64_t blocks = 0;
    std::int64_t samples = 0;
    core::Uutc start = 0; // first block's start time
    core::Uutc end = 0;   // exclusive end of the last block
    std::int32_t minimum = 0;
    std::int32_t maximum = 0;
    bool haveExtrema = false;
    std::uint32_t maxBlockBytes = 0;
    std::uint32_t maxBlockSamples = 0;
    std::uint32_t maxDifferenceBytes = 0;
    std::int64_t discontinuities = 0;
    std::int64_t runBlocks = 0, runBytes = 0, runSamples = 0; // the contiguous run the last block ends
    std::int64_t maxRunBlocks = 0, maxRunBytes = 0, maxRunSamples = 0;
    std::uint32_t firstCount = 0, lastCount = 0; // samples of the first and the last block
    bool intervalsVary = false;                  // a gap, or a short block before the last: no single block interval

    // meflib's block interval in microseconds, or -1 ("the intervals vary", as the specification says).
    std::int64_t blockInterval(double fs) const;

    // Counts one block (its index entry, discontinuity taken from the entry's RED flags) sampled at `fs` Hz.
    void add(const IndexEntry& entry, std::uint32_t differenceBytes, double fs);
};

} // namespace lv::formats::mef3
