// Column by column: gaps from block coverage, extrema from stored block extrema or decoded samples.
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
void scan(EnvelopeColumn& c, const std::vector<std::int32_t>& samples, std::int64_t blockFirst, std::int64_t from,
          std::int64_t to)
{
    for (std::int64_t i = from; i < to; ++i) {
        const std::int32_t v = samples[static_cast<std::size_t>(i - blockFirst)];
        if (v == core::kNoSample)
            c.hasGap = true;
        else
            merge(c, v, v);
    }
}

core::Result<BlockData> decoded(const core::BlockSource& source, BlockCache& cache, const EnvelopeRequest& r,
                                std::size_t block, const core::ReadControl& control)
{
    const core::BlockSpan span = source.blocks(r.channel)[block];
    const BlockKey key{r.recording, static_cast<std::uint32_t>(r.channel), block};
    return cache.get(key, [&]() -> core::Result<std::vector<std::int32_t>> {
        std::vector<std::int32_t> out(span.count);
        LV_TRY(source.decodeBlock(r.channel, block, out, control));
        return out;
    });
}

} // namespace

core::Result<std::vector<EnvelopeColumn>> computeEnvelope(const core::BlockSource& source, BlockCache& cache,
                                                          const EnvelopeRequest& r, const core::ReadControl& control)
{
    std::vector<EnvelopeColumn> columns(r.columns);
    const std::int64_t n = r.end - r.first;
    if (n <= 0 || r.columns == 0) return columns;
    const std::span<const core::BlockSpan> blocks = source.blocks(r.channel);
    auto k = static_cast<std::size_t>(
        std::upper_bound(blocks.begin(), blocks.end(), r.first,
                         [](std::int64_t v, const core::BlockSpan& b) { return v < b.first + b.count; }) -
        blocks.begin());
    std::size_t heldBlock = SIZE_MAX;
    BlockData held;
    for (std::size_t c = 0; c < r.columns; ++c) {
        const std::int64_t a = r.first + static_cast<std::int64_t>(c) * n / static_cast<std::int64_t>(r.columns);
        const std::int64_t b = r.first + static_cast<std::int64_t>(c + 1) * n / static_cast<std::int64_t>(r.columns);
        EnvelopeColumn& col = columns[c];
        // The block decoded last is held here: zoomed in, one block spans many columns (one cache lookup).
        std::int64_t covered = 0;
        for (std::size_t j = k; j < blocks.size() && blocks[j].first < b; ++j) {
            const core::BlockSpan& s = blocks[j];
            const std::int64_t from = std::max(a, s.first), to = std::min(b, s.first + s.count);
            if (from >= to) continue;
            covered += to - from;
            const bool whole = from == s.first && to == s.first + s.count;
            const bool narrow = static_cast<double>(s.count) <= r.smear * static_cast<double>(b - a);
            if (s.hasExtrema && (whole || narrow)) {
                merge(col, s.minimum, s.maximum); // the block's stored extrema, no decoding
                continue;
            }
            if (heldBlock != j) {
                auto data = decoded(source, cache, r, j, control);
                if (!data) return data.error();
                held = std::move(*data);
                heldBlock = j;
            }
            scan(col, *held, s.first, from, to);
        }
        col.hasGap = col.hasGap || covered < b - a;
        while (k < blocks.size() && blocks[k].first + blocks[k].count <= b) ++k; // blocks that end in this column
    }
    return columns;
}

} // namespace lv::cache
