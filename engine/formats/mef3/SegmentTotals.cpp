// Block-by-block accounting of meflib's section-2 totals.
#include "formats/mef3/SegmentTotals.h"

#include "formats/mef3/RedBlock.h"

#include <algorithm>
#include <cmath>

namespace lv::formats::mef3 {

void SegmentTotals::add(const IndexEntry& e, std::uint32_t differenceBytes, double fs)
{
    if (blocks == 0) {
        start = e.startTime;
        firstCount = e.sampleCount;
    } else if ((e.redFlags & kRedDiscontinuity) || lastCount != firstCount) {
        intervalsVary = true;
    }
    lastCount = e.sampleCount;
    if (e.redFlags & kRedDiscontinuity) {
        ++discontinuities;
        runBlocks = runBytes = runSamples = 0;
    }
    ++runBlocks, runBytes += e.blockBytes, runSamples += e.sampleCount;
    maxRunBlocks = std::max(maxRunBlocks, runBlocks);
    maxRunBytes = std::max(maxRunBytes, runBytes);
    maxRunSamples = std::max(maxRunSamples, runSamples);
    maxBlockBytes = std::max(maxBlockBytes, e.blockBytes);
    maxBlockSamples = std::max(maxBlockSamples, e.sampleCount);
    maxDifferenceBytes = std::max(maxDifferenceBytes, differenceBytes);
    if (e.minimumSampleValue != INT32_MIN) {
        minimum = haveExtrema ? std::min(minimum, e.minimumSampleValue) : e.minimumSampleValue;
        maximum = haveExtrema ? std::max(maximum, e.maximumSampleValue) : e.maximumSampleValue;
        haveExtrema = true;
    }
    ++blocks;
    samples += e.sampleCount;
    end = core::SampleGrid{e.startTime, fs}.timeOf(e.sampleCount); // saturating, whatever fs is
}

std::int64_t SegmentTotals::blockInterval(double fs) const
{
    if (intervalsVary || blocks == 0) return -1;
    return core::saturatingRound(static_cast<double>(firstCount) * 1e6 / fs);
}

} // namespace lv::formats::mef3
