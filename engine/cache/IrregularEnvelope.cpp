// One walk over the samples of the range (and one either side) in time order: columns found from the times,
// extrema from decoded blocks or, for blocks inside a column, from pyramid bins; joins from times and validity.
#include "cache/IrregularEnvelope.h"

#include "cache/SampleTimes.h"
#include "core/Time.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lv::cache {

namespace {

struct Walker {
    const IrregularRequest& r;
    IrregularEnvelope& out;
    std::int64_t startNs = 0;
    std::int64_t spanNs = 0;
    std::int64_t width = 0;
    std::int64_t edge = 0; // the next column edge (0 .. width) no sample has passed yet
    std::vector<bool> joined;
    bool prevValid = false;
    std::int64_t prevNs = 0;

    std::int64_t boundary(std::int64_t c) const // floor(startNs + spanNs * c / width), without overflow
    {
        return startNs + (spanNs / width) * c + ((spanNs % width) * c) / width;
    }

    // -1 before the range, width after it, else the column holding t.
    std::int64_t columnOf(std::int64_t t) const
    {
        if (t < startNs) return -1;
        if (t >= boundary(width)) return width;
        auto c = static_cast<std::int64_t>(static_cast<double>(t - startNs) / static_cast<double>(spanNs) *
                                           static_cast<double>(width));
        c = std::clamp<std::int64_t>(c, 0, width - 1);
        while (c > 0 && boundary(c) > t) --c;
        while (c + 1 < width && boundary(c + 1) <= t) ++c;
        return c;
    }

    void visit(std::int64_t t, std::int32_t v, bool damagedBlock)
    {
        const bool valid = v != core::kNoSample && !damagedBlock;
        for (; edge <= width && boundary(edge) <= t; ++edge)
            joined[static_cast<std::size_t>(edge)] = prevValid && valid && r.maxGapNs >= 0 && t - prevNs <= r.maxGapNs;
        const std::int64_t c = edge - 1;
        if (c < 0) {
            out.hasBefore = valid;
            out.before = v;
            out.beforeNs = t;
        } else if (c < width) {
            IrregularColumn& col = out.columns[static_cast<std::size_t>(c)];
            if (damagedBlock)
                col.hasDamage = true;
            else if (!valid)
                col.hasNaN = true;
            else {
                col.minimum = col.hasData ? std::min(col.minimum, v) : v;
                col.maximum = col.hasData ? std::max(col.maximum, v) : v;
                col.hasData = true;
            }
            col.lastValid = valid;
            if (valid) col.last = v;
        }
        prevValid = valid;
        prevNs = t;
    }

    void mergeBins(std::int64_t c, const BlockBins& bins)
    {
        IrregularColumn& col = out.columns[static_cast<std::size_t>(c)];
        for (std::size_t k = 0; k < bins.minimum.size(); ++k) {
            if (bins.minimum[k] <= bins.maximum[k]) {
                col.minimum = col.hasData ? std::min(col.minimum, bins.minimum[k]) : bins.minimum[k];
                col.maximum = col.hasData ? std::max(col.maximum, bins.maximum[k]) : bins.maximum[k];
                col.hasData = true;
            }
            col.hasNaN = col.hasNaN || bins.hasNaN[k];
        }
    }
};

core::Status readTimes(const ViewContext& view, std::size_t channel, std::int64_t first, std::span<std::int64_t> out)
{
    const core::TimeSlice slice{channel, first, out};
    return view.times->readTimes(std::span(&slice, 1), {});
}

} // namespace

std::int64_t maxGapNs(double fs, double factor)
{
    if (!(fs > 0) || !(factor > 0)) return -1;
    const double ns = factor * 1e9 / fs;
    return ns >= 9e18 ? std::numeric_limits<std::int64_t>::max() : static_cast<std::int64_t>(std::llround(ns));
}

core::Result<IrregularEnvelope> computeIrregularEnvelope(const ViewContext& view, const IrregularRequest& r,
                                                         const core::ReadControl& control)
{
    IrregularEnvelope out;
    out.columns.resize(r.columns);
    if (!view.times) return core::makeError(core::ErrorCode::Unsupported, "no sample times to view");
    const core::ChannelInfo& info = view.times->info().channels.at(r.channel);
    auto span = samplesOf(view.times, info, r.channel, r.range);
    if (!span) return span.error();
    out.first = span->first;
    out.end = span->first + span->count;
    const std::int64_t startNs = core::usToNs(r.range.start), spanNs = core::usToNs(r.range.end) - startNs;
    if (r.columns == 0 || spanNs <= 0) return out;
    Walker w{
        r,     out, startNs, spanNs, static_cast<std::int64_t>(r.columns), 0, std::vector<bool>(r.columns + 1, false),
        false, 0};
    // The sample before the range and the one after it decide the joins at its edges.
    const std::int64_t lo = std::max<std::int64_t>(0, out.first - 1);
    const std::int64_t hi = std::min(info.gridLength, out.end + 1);
    const std::span<const core::BlockSpan> blocks = view.source->blocks(r.channel);
    const BlockIndexRange covering = blocksCovering(*view.source, r.channel, lo, hi);
    std::vector<std::int64_t> times;
    for (std::size_t j = covering.first; j < covering.end; ++j) {
        if (control.cancel && control.cancel->cancelled())
            return core::makeError(core::ErrorCode::Cancelled, "cancelled");
        const core::BlockSpan& s = blocks[j];
        const std::int64_t from = std::max(lo, s.first),
                           to = std::min(hi, s.first + static_cast<std::int64_t>(s.count));
        if (from >= to) continue;
        const bool damaged = view.damaged && view.damaged->contains(r.channel, j);
        // A whole block strictly inside one column (the samples either side of it in that column too).
        if (view.pyramid && !damaged && from > lo && from == s.first && to == s.first + s.count && to < hi) {
            std::int64_t edges[2] = {0, 0};
            LV_TRY(readTimes(view, r.channel, from - 1, std::span(edges, 1)));
            LV_TRY(readTimes(view, r.channel, to, std::span(edges + 1, 1)));
            const std::int64_t c = w.columnOf(edges[0]);
            if (c >= 0 && c < w.width && w.columnOf(edges[1]) == c) {
                if (const std::optional<BlockBins> bins = view.pyramid->find(r.channel, j)) {
                    w.mergeBins(c, *bins);
                    ++out.binnedBlocks;
                    continue;
                }
            }
        }
        auto data = fetchBlock(view, r.channel, j, control);
        if (!data) return data.error();
        ++out.decodedBlocks;
        const bool damagedNow = view.damaged && view.damaged->contains(r.channel, j);
        times.resize(static_cast<std::size_t>(to - from));
        LV_TRY(readTimes(view, r.channel, from, times));
        for (std::int64_t i = from; i < to; ++i)
            w.visit(times[static_cast<std::size_t>(i - from)], (**data)[static_cast<std::size_t>(i - s.first)],
                    damagedNow);
    }
    for (std::size_t c = 0; c < r.columns; ++c) out.columns[c].joinedIn = w.joined[c];
    out.joinedOut = w.joined[r.columns];
    return out;
}

} // namespace lv::cache
