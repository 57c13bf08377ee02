// Placement: parts in time order at their nearest grid index; overlaps found pairwise; under First/Last each part
// in priority order keeps its span minus what higher-priority parts already cover.
#include "convert/MergePlacement.h"

#include <algorithm>
#include <cstdlib>

namespace lv::convert {

namespace {

struct Interval {
    std::int64_t lo = 0, hi = 0; // merged grid indices, half-open
};

// `span` minus every interval of `covered` (sorted, disjoint), in order.
std::vector<Interval> subtract(Interval span, const std::vector<Interval>& covered)
{
    std::vector<Interval> out;
    std::int64_t at = span.lo;
    for (const Interval& c : covered) {
        if (c.hi <= at || c.lo >= span.hi) continue;
        if (c.lo > at) out.push_back({at, c.lo});
        at = std::max(at, c.hi);
    }
    if (at < span.hi) out.push_back({at, span.hi});
    return out;
}

void cover(std::vector<Interval>& covered, Interval span)
{
    covered.push_back(span);
    std::sort(covered.begin(), covered.end(), [](Interval a, Interval b) { return a.lo < b.lo; });
    std::vector<Interval> merged;
    for (Interval c : covered) {
        if (!merged.empty() && c.lo <= merged.back().hi)
            merged.back().hi = std::max(merged.back().hi, c.hi);
        else
            merged.push_back(c);
    }
    covered = std::move(merged);
}

// Sorted, touching or overlapping ranges joined.
std::vector<core::TimeRange> coalesce(std::vector<core::TimeRange> ranges)
{
    std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    std::vector<core::TimeRange> out;
    for (const core::TimeRange& r : ranges) {
        if (r.end <= r.start) continue;
        if (!out.empty() && r.start <= out.back().end)
            out.back().end = std::max(out.back().end, r.end);
        else
            out.push_back(r);
    }
    return out;
}

// A part's own ranges (gaps or segments) within its fragment, on the merged grid.
void clipInto(const std::vector<core::TimeRange>& ranges, const core::ChannelInfo& own, const Fragment& f,
              const core::SampleGrid& grid, std::vector<core::TimeRange>& out, std::int64_t* samples = nullptr)
{
    const core::SampleGrid ownGrid = own.grid();
    for (const core::TimeRange& r : ranges) {
        const std::int64_t a = std::max(f.from, ownGrid.nearestIndex(r.start));
        const std::int64_t b = std::min(f.to, ownGrid.nearestIndex(r.end));
        if (a >= b) continue;
        out.push_back({grid.timeOf(f.offset + a), grid.timeOf(f.offset + b)});
        if (samples) *samples += b - a;
    }
}

void findOverlaps(const std::vector<PartChannel>& parts, const std::vector<Interval>& natural,
                  const core::SampleGrid& grid, Placement& out)
{
    for (std::size_t j = 0; j < parts.size(); ++j)
        for (std::size_t i = 0; i < j; ++i) {
            const core::ChannelInfo& a = *parts[i].info;
            const core::ChannelInfo& b = *parts[j].info;
            const Interval g{std::max(natural[i].lo, natural[j].lo), std::min(natural[i].hi, natural[j].hi)};
            Overlap o{parts[i].part, parts[j].part, {}, std::nullopt, std::max<std::int64_t>(0, g.hi - g.lo)};
            if (b.start < a.end)
                o.range = {b.start, std::min(a.end, b.end)};
            else if (g.lo < g.hi) // on the grid only: a start inside the predecessor's last sample period
                o.range = {grid.timeOf(g.lo), grid.timeOf(g.hi)};
            else
                continue;
            out.overlaps.push_back(o);
        }
}

// The fragments of every part, by priority (First: time order; Last: reverse), then in grid order.
std::vector<Fragment> resolve(const std::vector<PartChannel>& parts, const std::vector<Interval>& natural,
                              const std::vector<std::int64_t>& offsets, OverlapPolicy policy)
{
    std::vector<Fragment> fragments;
    std::vector<Interval> covered;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const std::size_t i = policy == OverlapPolicy::Last ? parts.size() - 1 - k : k;
        const std::vector<Interval> kept =
            policy == OverlapPolicy::Error ? std::vector<Interval>{natural[i]} : subtract(natural[i], covered);
        for (Interval f : kept)
            fragments.push_back({parts[i].part, parts[i].channel, offsets[i], f.lo - offsets[i], f.hi - offsets[i]});
        cover(covered, natural[i]);
    }
    std::stable_sort(fragments.begin(), fragments.end(),
                     [](const Fragment& a, const Fragment& b) { return a.offset + a.from < b.offset + b.from; });
    return fragments;
}

} // namespace

Placement placeParts(std::vector<PartChannel> parts, OverlapPolicy policy)
{
    Placement out;
    std::stable_sort(parts.begin(), parts.end(),
                     [](const PartChannel& a, const PartChannel& b) { return a.info->start < b.info->start; });
    core::ChannelInfo& ch = out.channel;
    ch.fs = parts.front().info->fs;
    ch.start = parts.front().info->start;
    const core::SampleGrid grid = ch.grid();
    std::vector<Interval> natural;
    std::vector<std::int64_t> offsets;
    for (const PartChannel& p : parts) {
        const std::int64_t offset = grid.nearestIndex(p.info->start);
        if (const std::int64_t shift = grid.timeOf(offset) - p.info->start; std::abs(shift) > 1)
            out.shifted.emplace_back(p.part, shift);
        offsets.push_back(offset);
        natural.push_back({offset, offset + p.info->gridLength});
    }
    findOverlaps(parts, natural, grid, out);
    if (policy != OverlapPolicy::Error)
        for (Overlap& o : out.overlaps) o.kept = policy == OverlapPolicy::First ? o.earlier : o.later;
    out.fragments = resolve(parts, natural, offsets, policy);
    std::vector<core::TimeRange> gaps;
    std::int64_t end = 0;
    for (const Fragment& f : out.fragments) {
        const core::ChannelInfo& own = *std::find_if(parts.begin(), parts.end(), [&](const PartChannel& p) {
                                            return p.part == f.part && p.channel == f.channel;
                                        })->info;
        if (f.offset + f.from > end && end > 0) gaps.push_back({grid.timeOf(end), grid.timeOf(f.offset + f.from)});
        std::int64_t missing = 0;
        clipInto(own.gaps, own, f, grid, gaps, &missing);
        clipInto(own.segments, own, f, grid, ch.segments);
        const bool whole = f.from == 0 && f.to == own.gridLength;
        ch.sampleCount += whole ? own.sampleCount : f.to - f.from - missing;
        end = std::max(end, f.offset + f.to);
    }
    ch.gaps = coalesce(std::move(gaps));
    ch.gridLength = end;
    ch.end = grid.timeOf(end);
    return out;
}

} // namespace lv::convert
