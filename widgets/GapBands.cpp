// Recording-wide gaps as the complement of every channel's coverage; per-channel bands as the remainder.
#include "GapBands.h"

#include <algorithm>

namespace lv::widgets {

std::vector<core::TimeRange> unionRanges(std::vector<core::TimeRange> ranges)
{
    std::sort(ranges.begin(), ranges.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    std::vector<core::TimeRange> out;
    for (const core::TimeRange& r : ranges) {
        if (r.empty()) continue;
        if (!out.empty() && r.start <= out.back().end)
            out.back().end = std::max(out.back().end, r.end);
        else
            out.push_back(r);
    }
    return out;
}

std::vector<core::TimeRange> subtractRanges(const std::vector<core::TimeRange>& from,
                                            const std::vector<core::TimeRange>& remove)
{
    std::vector<core::TimeRange> out;
    std::size_t k = 0;
    for (core::TimeRange r : from) {
        while (k < remove.size() && remove[k].end <= r.start) ++k;
        for (std::size_t j = k; j < remove.size() && remove[j].start < r.end; ++j) {
            if (remove[j].start > r.start) out.push_back({r.start, remove[j].start});
            r.start = std::max(r.start, remove[j].end);
            if (r.empty()) break;
        }
        if (!r.empty()) out.push_back(r);
    }
    return out;
}

std::vector<core::TimeRange> clipRanges(const std::vector<core::TimeRange>& ranges, core::TimeRange window)
{
    std::vector<core::TimeRange> out;
    auto it = std::lower_bound(ranges.begin(), ranges.end(), window.start,
                               [](const core::TimeRange& r, core::Uutc t) { return r.end <= t; });
    for (; it != ranges.end() && it->start < window.end; ++it) {
        const core::TimeRange r{std::max(it->start, window.start), std::min(it->end, window.end)};
        if (!r.empty()) out.push_back(r);
    }
    return out;
}

GapBands computeGapBands(const core::RecordingInfo& info)
{
    GapBands bands;
    if (info.channels.empty()) return bands; // annotations only (a hypnogram): no signal is missing anywhere
    std::vector<core::TimeRange> covered;
    for (const core::ChannelInfo& ch : info.channels) {
        const auto gaps = unionRanges(ch.gaps);
        for (const core::TimeRange& r : subtractRanges({{ch.start, ch.end}}, gaps)) covered.push_back(r);
    }
    bands.recording = subtractRanges({{info.start, info.end}}, unionRanges(std::move(covered)));
    for (const core::ChannelInfo& ch : info.channels)
        bands.channels.push_back(subtractRanges(unionRanges(ch.gaps), bands.recording));
    return bands;
}

} // namespace lv::widgets
