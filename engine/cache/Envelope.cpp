// Column by column: gaps from block coverage; extrema and NaN flags from stored block extrema, pyramid bins or
// decoded samples.
#include "cache/Envelope.h"

#include <algorithm>
#include <cstdint>

namespace lv::cache {

namespace {

void merge(EnvelopeColumn& c, std::int32_t lo, std::int32_t hi)
{
    c.minimum = c.hasData ? std::min(c.minimum, lo) : lo;
    c.maximum = c.hasData ? std::max(c.maximum, hi) : hi;
    c.hasData = true;
}

// Scans decoded samples [from, to) (grid indices) of a block that starts at `blockFirst`.
void scan(EnvelopeColumn& c, const BlockSamples& samples, std::int64_t blockFirst, std::int64_t from, std::int64_t to)
{
    for (std::int64_t i = from; i < to; ++i) {
        const std::int32_t v = samples[static_cast<std::size_t>(i - blockFirst)];
        if (v == core::kNoSample)
            c.hasNaN = true;
        else
            merge(c, v, v);
    }
}

// One column's walk over the blocks it touches; holds the block decoded last (zoomed in, one block spans many
// columns: one cache lookup).
struct ColumnWalker {
    const ViewContext& view;
    const EnvelopeRequest& r;
    const core::ReadControl& control;
    std::span<const core::BlockSpan> blocks;
    std::size_t heldBlock = SIZE_MAX;
    BlockData held;

    bool damaged(std::size_t j) const { return view.damaged && view.damaged->contains(r.channel, j); }

    core::Status scanDecoded(EnvelopeColumn& col, std::size_t j, std::int64_t from, std::int64_t to)
    {
        if (heldBlock != j) {
            auto data = fetchBlock(view, r.channel, j, control);
            if (!data) return data.error();
            held = std::move(*data);
            heldBlock = j;
        }
        if (damaged(j)) {
            col.hasDamage = true;
            return {};
        }
        scan(col, *held, blocks[j].first, from, to);
        return {};
    }

    // Bins of the block's summary inside [from, to) give their extrema; a bin cut by the column edge and wider
    // than the allowed smear is scanned from the decoded block.
    core::Status fromBins(EnvelopeColumn& col, const BlockBins& sum, std::size_t j, std::int64_t from, std::int64_t to,
                          double columnWidth)
    {
        const core::BlockSpan& s = blocks[j];
        const std::int64_t bin = view.pyramid->binSamples();
        for (std::int64_t k = (from - s.first) / bin; s.first + k * bin < to; ++k) {
            const std::int64_t a = s.first + k * bin, b = std::min<std::int64_t>(a + bin, s.first + s.count);
            const bool inside = a >= from && b <= to;
            if (inside || static_cast<double>(b - a) <= r.smear * columnWidth) {
                const auto u = static_cast<std::size_t>(k);
                if (sum.minimum[u] <= sum.maximum[u]) merge(col, sum.minimum[u], sum.maximum[u]);
                col.hasNaN = col.hasNaN || sum.hasNaN[u];
                continue;
            }
            LV_TRY(scanDecoded(col, j, std::max(a, from), std::min(b, to)));
        }
        return {};
    }

    core::Status add(EnvelopeColumn& col, std::size_t j, std::int64_t from, std::int64_t to, double columnWidth)
    {
        const core::BlockSpan& s = blocks[j];
        if (damaged(j)) { // found damaged by an earlier decode: its stored extrema are not shown either
            col.hasDamage = true;
            return {};
        }
        const bool whole = from == s.first && to == s.first + s.count;
        const bool narrow = static_cast<double>(s.count) <= r.smear * columnWidth;
        const std::optional<BlockBins> sum = view.pyramid ? view.pyramid->find(r.channel, j) : std::nullopt;
        if (s.hasExtrema && (whole || narrow)) {
            merge(col, s.minimum, s.maximum); // the block's stored extrema, no decoding
            col.hasNaN = col.hasNaN || (sum && sum->anyNaN);
            col.nanUnchecked = col.nanUnchecked || !sum;
            return {};
        }
        if (sum) return fromBins(col, *sum, j, from, to, columnWidth);
        return scanDecoded(col, j, from, to);
    }
};

} // namespace

core::Result<std::vector<EnvelopeColumn>> computeEnvelope(const ViewContext& view, const EnvelopeRequest& r,
                                                          const core::ReadControl& control)
{
    std::vector<EnvelopeColumn> columns(r.columns);
    const std::int64_t n = r.end - r.first;
    if (n <= 0 || r.columns == 0) return columns;
    const std::span<const core::BlockSpan> blocks = view.source->blocks(r.channel);
    ColumnWalker walker{view, r, control, blocks, SIZE_MAX, nullptr};
    std::size_t k = blocksCovering(*view.source, r.channel, r.first, r.first + 1).first;
    for (std::size_t c = 0; c < r.columns; ++c) {
        const std::int64_t a = r.first + static_cast<std::int64_t>(c) * n / static_cast<std::int64_t>(r.columns);
        const std::int64_t b = r.first + static_cast<std::int64_t>(c + 1) * n / static_cast<std::int64_t>(r.columns);
        EnvelopeColumn& col = columns[c];
        std::int64_t covered = 0;
        for (std::size_t j = k; j < blocks.size() && blocks[j].first < b; ++j) {
            const core::BlockSpan& s = blocks[j];
            const std::int64_t from = std::max(a, s.first), to = std::min(b, s.first + s.count);
            if (from >= to) continue;
            covered += to - from;
            LV_TRY(walker.add(col, j, from, to, static_cast<double>(b - a)));
        }
        col.hasGap = col.hasGap || covered < b - a;
        while (k < blocks.size() && blocks[k].first + blocks[k].count <= b) ++k; // blocks that end in this column
    }
    return columns;
}

core::Result<std::vector<EnvelopeColumn>> computeEnvelope(const core::BlockSource& source, BlockCache& cache,
                                                          const EnvelopeRequest& request,
                                                          const core::ReadControl& control)
{
    return computeEnvelope(ViewContext{&source, &cache, request.recording, nullptr}, request, control);
}

} // namespace lv::cache
