// Concatenating irregular channels: parts in time order, overlaps resolved by sample times.
#include "convert/MergeIrregular.h"

#include <algorithm>
#include <limits>

namespace lv::convert {

namespace {

constexpr core::Uutc kEarliest = std::numeric_limits<core::Uutc>::min() / 4;

// Samples of a part's channel before time t.
core::Result<std::int64_t> countBefore(core::Recording& r, std::size_t channel, core::Uutc t)
{
    auto span = r.samplesIn(channel, {kEarliest, t});
    if (!span) return span.error();
    return span->first + span->count;
}

// The part's segments clipped to [from, to) in time.
void addSegments(const core::ChannelInfo& ch, core::TimeRange kept, core::ChannelInfo& out)
{
    for (const core::TimeRange& s : ch.segments) {
        const core::TimeRange clipped{std::max(s.start, kept.start), std::min(s.end, kept.end)};
        if (clipped.empty()) continue;
        if (!out.segments.empty() && clipped.start > out.segments.back().end)
            out.gaps.push_back({out.segments.back().end, clipped.start});
        if (!out.segments.empty() && clipped.start <= out.segments.back().end)
            out.segments.back().end = std::max(out.segments.back().end, clipped.end);
        else
            out.segments.push_back(clipped);
    }
}

} // namespace

core::Result<Placement> placeIrregularParts(std::vector<PartChannel> parts,
                                            const std::vector<core::Recording*>& recordings, OverlapPolicy policy)
{
    std::stable_sort(parts.begin(), parts.end(),
                     [](const PartChannel& a, const PartChannel& b) { return a.info->start < b.info->start; });
    Placement placed;
    core::ChannelInfo& out = placed.channel;
    out.irregular = true;
    out.fs = parts.front().info->fs;
    out.start = parts.front().info->start;
    std::vector<core::TimeRange> kept(parts.size());
    std::vector<std::int64_t> from(parts.size(), 0), to(parts.size());
    for (std::size_t k = 0; k < parts.size(); ++k) {
        kept[k] = {parts[k].info->start, parts[k].info->end};
        to[k] = parts[k].info->sampleCount;
    }
    for (std::size_t k = 1; k < parts.size(); ++k) {
        const std::size_t e = k - 1; // the earlier part, as kept so far
        if (kept[e].end <= kept[k].start) continue;
        Overlap o{parts[e].part, parts[k].part, {kept[k].start, std::min(kept[e].end, kept[k].end)}, {}, 0};
        if (policy == OverlapPolicy::First) {
            auto cut = countBefore(*recordings[parts[k].part], parts[k].channel, kept[e].end);
            if (!cut) return cut.error();
            o.kept = parts[e].part;
            o.droppedSamples = std::min(*cut, to[k]) - from[k];
            from[k] = std::min(*cut, to[k]);
            kept[k].start = kept[e].end;
        } else if (policy == OverlapPolicy::Last) {
            auto cut = countBefore(*recordings[parts[e].part], parts[e].channel, kept[k].start);
            if (!cut) return cut.error();
            o.kept = parts[k].part;
            o.droppedSamples = to[e] - std::max(*cut, from[e]);
            to[e] = std::max(*cut, from[e]);
            kept[e].end = kept[k].start;
        }
        placed.overlaps.push_back(o);
    }
    std::int64_t merged = 0;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        if (to[k] <= from[k]) continue;
        placed.fragments.push_back({parts[k].part, parts[k].channel, merged - from[k], from[k], to[k]});
        merged += to[k] - from[k];
        addSegments(*parts[k].info, kept[k], out);
        out.end = std::max(out.end, kept[k].end);
    }
    out.sampleCount = out.gridLength = merged;
    if (!out.segments.empty()) out.start = out.segments.front().start;
    return placed;
}

core::Result<core::SampleSpan> irregularSamplesIn(const std::vector<Fragment>& fragments,
                                                  const std::vector<core::Recording*>& recordings,
                                                  core::TimeRange range)
{
    const auto before = [&](core::Uutc t) -> core::Result<std::int64_t> {
        std::int64_t n = 0;
        for (const Fragment& f : fragments) {
            auto count = countBefore(*recordings[f.part], f.channel, t);
            if (!count) return count.error();
            n += std::clamp(*count, f.from, f.to) - f.from;
        }
        return n;
    };
    auto first = before(range.start);
    if (!first) return first.error();
    auto last = before(range.end);
    if (!last) return last.error();
    return core::SampleSpan{*first, std::max<std::int64_t>(0, *last - *first)};
}

} // namespace lv::convert
