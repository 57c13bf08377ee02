// Min/max envelopes of irregular channels (samples at their own times, no grid): per pixel column of a time range
// the extrema of the samples whose times fall in it (an empty column stays empty, never interpolated), and what a
// step drawing needs: the value held from before the range and, per column, whether the step line enters it.
#pragma once

#include "cache/ViewContext.h"

#include <cstdint>
#include <vector>

namespace lv::cache {

struct IrregularColumn {
    std::int32_t minimum = 0; // of the column's valid samples (stored counts); meaningful when hasData
    std::int32_t maximum = 0;
    std::int32_t last = 0;  // the column's last sample, when lastValid: the value a step holds past the column
    bool lastValid = false; // the column's last sample is valid (not kNoSample, not in a damaged block)
    bool hasData = false;   // a valid sample's time falls in the column
    bool hasNaN = false;    // an invalid sample (kNoSample) falls in the column
    bool hasDamage = false; // a sample of the column lies in a block found damaged (no data shown from it)
    // A step enters from the left: the last sample before the column's start and the next one at or after it are
    // both valid and at most maxGapNs apart (the held value crosses the column's left edge).
    bool joinedIn = false;
};

struct IrregularRequest {
    std::size_t channel = 0;
    core::TimeRange range;     // uUTC, half-open
    std::size_t columns = 0;   // column c covers ns [s + c * d / columns, s + (c + 1) * d / columns), s and d of range
    std::int64_t maxGapNs = 0; // consecutive samples further apart are not joined by a step (< 0: never)
};

struct IrregularEnvelope {
    std::vector<IrregularColumn> columns;
    std::int64_t first = 0; // the samples [first, end) whose times lie in the range
    std::int64_t end = 0;
    bool hasBefore = false; // the last sample before the range exists and is valid: its count and time
    std::int32_t before = 0;
    std::int64_t beforeNs = 0;
    bool joinedOut = false;        // a step leaves at the range's end (the samples either side of it are joined)
    std::size_t decodedBlocks = 0; // blocks scanned from decoded samples (through the cache)
    std::size_t binnedBlocks = 0;  // blocks inside one column taken from the pyramid's bins, not decoded
};

// Times from view.times (readTimes, samplesIn), samples through the cache (fetchBlock: decoded once, summarised
// into the pyramid). A block whose samples all lie inside one column, none of them the column's first or last, is
// taken from its pyramid bins when it has them; every other block is decoded. The result equals a brute-force pass
// over every sample.
core::Result<IrregularEnvelope> computeIrregularEnvelope(const ViewContext& view, const IrregularRequest& request,
                                                         const core::ReadControl& control);

// The maximum gap of a step for `factor` median intervals of a channel of median rate fs (ns).
std::int64_t maxGapNs(double fs, double factor);

} // namespace lv::cache
