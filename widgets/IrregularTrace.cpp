// Steps: each valid sample's value held to the next sample when that one is valid and at most the maximum gap later,
// else the line stops (a NaN point halfway). Points: every valid sample alone. Columns: min/max, held values carried.
#include "IrregularTrace.h"

#include "TraceBuilder.h"

#include "cache/IrregularEnvelope.h"
#include "cache/SampleTimes.h"
#include "cache/ViewContext.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lv::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Points {
    ChannelTrace& t;
    std::int64_t originNs;
    double x(std::int64_t ns) const { return static_cast<double>(ns - originNs) / 1e9; }
    void add(double x, double y)
    {
        t.x.push_back(x);
        t.y.push_back(y);
    }
    void stop(double x) // ends the run (once)
    {
        if (!t.y.empty() && !std::isnan(t.y.back())) add(x, kNaN);
    }
};

// One point per sample, with the samples either side of the range for the steps that cross its edges.
bool samplePoints(const cache::ViewContext& view, const FrameRequest& request, std::size_t channel,
                  core::SampleSpan span, std::int64_t maxGap, const core::ReadControl& control, ChannelTrace& t,
                  std::vector<core::TimeRange>& nan, std::string& error)
{
    const core::ChannelInfo& ch = view.times->info().channels.at(channel);
    const std::int64_t lo = std::max<std::int64_t>(0, span.first - 1);
    const std::int64_t hi = std::min(ch.gridLength, span.first + span.count + 1);
    std::vector<std::int64_t> times(static_cast<std::size_t>(hi - lo));
    std::vector<std::int32_t> raw(times.size());
    const core::TimeSlice slice{channel, lo, times};
    if (auto s = view.times->readTimes(std::span(&slice, 1), control); !s) {
        error = s.error().describe();
        return false;
    }
    if (auto s = cache::readThroughCache(view, channel, lo, raw, control); !s) {
        error = s.error().describe();
        return false;
    }
    Points p{t, core::usToNs(view.times->info().start)};
    const std::int64_t end = span.first + span.count;
    const bool points = request.irregular.pointsFor(channel);
    t.x.reserve(2 * times.size());
    t.y.reserve(2 * times.size());
    for (std::int64_t i = lo; i < end; ++i) {
        const auto k = static_cast<std::size_t>(i - lo);
        const bool inside = i >= span.first;
        if (raw[k] == core::kNoSample) {
            if (inside)
                nan.push_back(
                    {core::nsToUs(times[k]), i + 1 < hi ? core::nsToUs(times[k + 1]) : core::nsToUs(times[k]) + 1});
            continue;
        }
        const double y = static_cast<double>(raw[k]) * ch.conversionFactor;
        if (points) {
            if (!inside) continue;
            p.add(p.x(times[k]), y);
            p.stop(p.x(times[k]));
            continue;
        }
        p.add(p.x(times[k]), y);
        const bool next = i + 1 < hi;
        if (next && raw[k + 1] != core::kNoSample && maxGap >= 0 && times[k + 1] - times[k] <= maxGap)
            p.add(p.x(times[k + 1]), y); // held to the next sample, which then steps
        else
            p.stop(next ? (p.x(times[k]) + p.x(times[k + 1])) / 2 : p.x(times[k]));
    }
    return true;
}

// Per column min and max; a held value crosses a column edge where the envelope says the step joins.
bool envelopePoints(const cache::ViewContext& view, const FrameRequest& request, std::size_t channel,
                    std::int64_t maxGap, const core::ReadControl& control, ChannelTrace& t,
                    std::vector<core::TimeRange>& nan, std::vector<core::TimeRange>& damaged, std::string& error)
{
    const core::ChannelInfo& ch = view.times->info().channels.at(channel);
    auto envelope = cache::computeIrregularEnvelope(view, {channel, request.range, request.columns, maxGap}, control);
    if (!envelope) {
        error = envelope.error().describe();
        return false;
    }
    const std::int64_t s = core::usToNs(request.range.start), d = core::usToNs(request.range.end) - s;
    const auto w = static_cast<std::int64_t>(request.columns);
    const auto edge = [&](std::int64_t c) { return s + (d / w) * c + ((d % w) * c) / w; };
    Points p{t, core::usToNs(view.times->info().start)};
    const bool points = request.irregular.pointsFor(channel);
    const double factor = ch.conversionFactor;
    bool held = envelope->hasBefore;
    double heldY = static_cast<double>(envelope->before) * factor;
    t.x.reserve(3 * request.columns);
    t.y.reserve(3 * request.columns);
    for (std::int64_t c = 0; c < w; ++c) {
        const cache::IrregularColumn& col = envelope->columns[static_cast<std::size_t>(c)];
        const std::int64_t a = edge(c), b = edge(c + 1);
        const double left = p.x(a), middle = p.x(a + (b - a) / 2);
        const core::TimeRange span{core::nsToUs(a), core::nsToUs(b)};
        if (col.hasNaN) nan.push_back(span);
        if (col.hasDamage) damaged.push_back(span);
        if (!points && col.joinedIn && held)
            p.add(left, heldY);
        else
            p.stop(left);
        if (col.hasData) {
            p.add(middle, static_cast<double>(col.minimum) * factor);
            if (col.maximum != col.minimum) p.add(middle, static_cast<double>(col.maximum) * factor);
            if (points) p.stop(middle);
        }
        if (col.hasData || col.hasNaN || col.hasDamage) { // the column's last sample decides what is held past it
            held = col.lastValid;
            heldY = static_cast<double>(col.last) * factor;
            if (!points && held) p.add(middle, heldY);
        }
    }
    if (!points && envelope->joinedOut && held) p.add(p.x(s + d), heldY);
    return true;
}

// The time spans of the channel's damaged blocks within samples [first, end).
std::vector<core::TimeRange> damagedSpans(const cache::ViewContext& view, std::size_t channel, core::SampleSpan span)
{
    std::vector<core::TimeRange> runs;
    if (!view.damaged || !view.source) return runs;
    const auto blocks = view.source->blocks(channel);
    const core::ChannelInfo& ch = view.times->info().channels.at(channel);
    for (std::size_t b : view.damaged->blocksOf(channel)) {
        if (b >= blocks.size()) continue;
        const std::int64_t from = std::max(span.first, blocks[b].first);
        const std::int64_t to = std::min(span.first + span.count, blocks[b].first + std::int64_t{blocks[b].count});
        if (from >= to) continue;
        if (auto times = cache::timeSpanOf(view.times, ch, channel, from, to)) runs.push_back(*times);
    }
    return runs;
}

} // namespace

ChannelTrace buildIrregularTrace(const cache::ViewContext& view, const FrameRequest& request, std::size_t channel,
                                 const core::CancelToken& cancel, std::string& error)
{
    ChannelTrace t;
    t.channel = channel;
    t.points = request.irregular.pointsFor(channel);
    if (!view.times) {
        error = "no sample times to view";
        return t;
    }
    const core::ChannelInfo& ch = view.times->info().channels.at(channel);
    if (request.columns == 0 || request.range.end <= request.range.start) return t;
    auto span = cache::samplesOf(view.times, ch, channel, request.range);
    if (!span) {
        error = span.error().describe();
        return t;
    }
    core::ReadControl control;
    control.cancel = &cancel;
    std::vector<core::TimeRange> nan, damaged;
    const std::int64_t maxGap = cache::maxGapNs(ch.fs, request.irregular.maxGapFactor);
    const bool perSample =
        static_cast<double>(span->count) <= static_cast<double>(request.columns) * kSamplesPerColumnLimit;
    if (perSample) {
        if (!samplePoints(view, request, channel, *span, maxGap, control, t, nan, error)) return t;
        damaged = damagedSpans(view, channel, *span);
    } else if (!envelopePoints(view, request, channel, maxGap, control, t, nan, damaged, error)) {
        return t;
    }
    t.damagedRuns = unionRanges(std::move(damaged));
    t.nanRuns = subtractRanges(unionRanges(std::move(nan)), t.damagedRuns);
    robustExtent(t);
    return t;
}

} // namespace lv::widgets
