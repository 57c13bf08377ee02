// Min/max envelopes for drawing: per pixel column the extrema of a channel's stored counts, and whether any
// grid point of the column has no sample. Whole blocks inside a column use the extrema stored with the block
// (MEF index entries: no decoding); partly covered blocks use the pyramid's bins where those are exact enough,
// else are decoded through the BlockCache.
#pragma once

#include "cache/BlockCache.h"
#include "cache/ViewContext.h"
#include "core/BlockSource.h"

#include <cstdint>
#include <vector>

namespace lv::cache {

struct EnvelopeColumn {
    std::int32_t minimum = 0; // stored counts; meaningful when hasData
    std::int32_t maximum = 0;
    bool hasData = false;
    bool hasGap = false;       // some grid point of the column lies in a gap (no block holds it)
    bool hasNaN = false;       // some sample of a block in the column is NaN (missing inside a block)
    bool nanUnchecked = false; // a block was summarised by its stored extrema alone: its NaN samples are unknown
    bool hasDamage = false;    // a block of the column is damaged (ViewContext::damaged): no data shown from it
};

struct EnvelopeRequest {
    std::uint64_t recording = 0; // the cache id of the recording
    std::size_t channel = 0;
    std::int64_t first = 0; // grid indices [first, end), half-open
    std::int64_t end = 0;
    std::size_t columns = 0;
    // 0: exact extrema. > 0: a block that only partly overlaps a column but is at most this fraction of the
    // column's width adds its whole stored extrema instead of being decoded (an overview draws a peak up to that
    // fraction of a column early or late, never loses one). Gap flags stay exact.
    double smear = 0.0;
};

// Column c covers grid indices [first + c * n / columns, first + (c + 1) * n / columns), n = end - first.
// NaN samples inside blocks are found in decoded samples and in the pyramid's bins; a block known only by its
// stored extrema sets nanUnchecked instead (request.recording is ignored: the view's is used).
core::Result<std::vector<EnvelopeColumn>> computeEnvelope(const ViewContext& view, const EnvelopeRequest& request,
                                                          const core::ReadControl& control);
// The same without a pyramid.
core::Result<std::vector<EnvelopeColumn>> computeEnvelope(const core::BlockSource& source, BlockCache& cache,
                                                          const EnvelopeRequest& request,
                                                          const core::ReadControl& control);

} // namespace lv::cache
