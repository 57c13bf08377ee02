// Envelope columns or decoded samples become points in physical units; gaps and NaN runs become line breaks.
#include "TraceBuilder.h"

#include "FilteredTrace.h"
#include "IrregularTrace.h"
#include "LaneEnvelopes.h"
#include "MontageLanes.h"
#include "ThreadPriority.h"

#include "cache/Envelope.h"
#include "cache/ViewContext.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace lv::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double secondsFrom(core::Uutc origin, core::Uutc t) { return static_cast<double>(t - origin) / 1e6; }

} // namespace

void robustExtent(ChannelTrace& t)
{
    std::vector<double> v;
    v.reserve(t.y.size());
    for (double y : t.y)
        if (!std::isnan(y)) v.push_back(y);
    if (v.empty()) return;
    const std::size_t lo = v.size() / 100, hi = v.size() - 1 - v.size() / 100;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
    t.low = v[lo];
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(hi), v.end());
    t.high = v[hi];
}

namespace {

// Appends a NaN point at the middle of every break (sorted), after the points with the same x: the line stops.
void insertBreaks(ChannelTrace& t, const std::vector<double>& breaks)
{
    if (breaks.empty()) return;
    std::vector<double> x, y;
    x.reserve(t.x.size() + breaks.size());
    y.reserve(t.x.size() + breaks.size());
    std::size_t i = 0;
    for (double b : breaks) {
        for (; i < t.x.size() && t.x[i] <= b; ++i) {
            x.push_back(t.x[i]);
            y.push_back(t.y[i]);
        }
        x.push_back(b);
        y.push_back(kNaN);
    }
    x.insert(x.end(), t.x.begin() + static_cast<std::ptrdiff_t>(i), t.x.end());
    y.insert(y.end(), t.y.begin() + static_cast<std::ptrdiff_t>(i), t.y.end());
    t.x = std::move(x);
    t.y = std::move(y);
}

// A break at the middle of each of `ranges` (merged where they overlap), x in seconds from `start`.
void addBreaks(ChannelTrace& t, std::vector<core::TimeRange> ranges, core::Uutc start)
{
    std::vector<double> middles;
    for (const core::TimeRange& g : unionRanges(std::move(ranges)))
        middles.push_back(secondsFrom(start, g.start + g.duration() / 2));
    insertBreaks(t, middles);
}

// One point per sample; NaN samples become NaN points and NaN runs. False (and `error`) when the read failed.
bool samplePoints(view::ViewSession& session, std::size_t channel, std::int64_t first, std::int64_t end,
                  const core::ReadControl& control, ChannelTrace& t, std::vector<core::TimeRange>& nan,
                  std::string& error)
{
    const core::RecordingInfo& info = session.info();
    const core::ChannelInfo& ch = info.channels.at(channel);
    const core::SampleGrid grid = ch.grid();
    const auto n = static_cast<std::size_t>(end - first);
    std::vector<std::int32_t> raw(n);
    if (auto s = cache::readThroughCache(session.context(), channel, first, raw, control); !s) {
        error = s.error().describe();
        return false;
    }
    const double origin = secondsFrom(info.start, grid.origin), step = 1.0 / grid.fs, factor = ch.conversionFactor;
    t.x.resize(n);
    t.y.resize(n);
    std::int64_t runStart = -1;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t index = first + static_cast<std::int64_t>(i);
        t.x[i] = origin + static_cast<double>(index) * step;
        const std::int32_t v = raw[i];
        t.y[i] = v == core::kNoSample ? kNaN : static_cast<double>(v) * factor + ch.offset;
        if (v == core::kNoSample) {
            if (runStart < 0) runStart = index;
        } else if (runStart >= 0) {
            nan.push_back({grid.timeOf(runStart), grid.timeOf(index)});
            runStart = -1;
        }
    }
    if (runStart >= 0) nan.push_back({grid.timeOf(runStart), grid.timeOf(end)});
    return true;
}

// Min and max per column (display-exact or from stored extrema); columns with a NaN become NaN runs.
bool envelopePoints(view::ViewSession& session, const FrameRequest& request, std::size_t channel, std::int64_t first,
                    std::int64_t end, const core::ReadControl& control, ChannelTrace& t,
                    std::vector<core::TimeRange>& nan, std::string& error)
{
    const core::RecordingInfo& info = session.info();
    const core::ChannelInfo& ch = info.channels.at(channel);
    const core::SampleGrid grid = ch.grid();
    const std::int64_t n = end - first;
    const std::size_t width = std::min<std::size_t>(request.columns, static_cast<std::size_t>(n));
    const cache::EnvelopeRequest r{session.context().recording,        channel, first, end, width,
                                   request.exact ? request.smear : 1e9};
    auto envelope = cache::computeEnvelope(session.context(), r, control);
    if (!envelope) {
        error = envelope.error().describe();
        return false;
    }
    t.x.reserve(2 * width);
    t.y.reserve(2 * width);
    const auto w = static_cast<std::int64_t>(width);
    for (std::size_t c = 0; c < width; ++c) {
        const std::int64_t a = first + static_cast<std::int64_t>(c) * n / w;
        const std::int64_t b = first + static_cast<std::int64_t>(c + 1) * n / w;
        const core::TimeRange span{grid.timeOf(a), grid.timeOf(b)};
        const double x = secondsFrom(info.start, span.start + span.duration() / 2);
        const cache::EnvelopeColumn& col = (*envelope)[c];
        if (col.hasData) {
            t.x.insert(t.x.end(), {x, x});
            t.y.insert(t.y.end(), {static_cast<double>(col.minimum) * ch.conversionFactor + ch.offset,
                                   static_cast<double>(col.maximum) * ch.conversionFactor + ch.offset});
        } else {
            t.x.push_back(x);
            t.y.push_back(kNaN);
        }
        if (col.hasNaN) nan.push_back(span); // a NaN sample inside a block: a NaN run (at column resolution)
    }
    return true;
}

// Bits of every sample (a trigger code has no extrema to take from storage): one point per sample when zoomed in,
// else min/max of the codes per column; read in chunks, cancellable. A coarse frame of a long range leaves the
// channel empty (no data yet) rather than read it all twice.
bool bitPoints(view::ViewSession& session, const FrameRequest& request, std::size_t channel, BitView bits,
               std::int64_t first, std::int64_t end, const core::ReadControl& control, ChannelTrace& t,
               std::vector<core::TimeRange>& nan, std::string& error)
{
    constexpr std::int64_t kChunk = 1 << 20, kCoarseLimit = 4 * kChunk;
    const core::RecordingInfo& info = session.info();
    const core::SampleGrid grid = info.channels.at(channel).grid();
    const std::int64_t n = end - first;
    if (!request.exact && n > kCoarseLimit) return true;
    const bool perSample = static_cast<double>(n) <= static_cast<double>(request.columns) * kSamplesPerColumnLimit;
    const auto width = static_cast<std::int64_t>(perSample ? n : std::min<std::int64_t>(n, request.columns));
    std::vector<std::int32_t> lo(static_cast<std::size_t>(width), std::numeric_limits<std::int32_t>::max());
    std::vector<std::int32_t> hi(static_cast<std::size_t>(width), std::numeric_limits<std::int32_t>::min());
    std::vector<bool> hasNaN(static_cast<std::size_t>(width), false);
    std::vector<std::int32_t> raw;
    for (std::int64_t at = first; at < end; at += kChunk) {
        if (control.cancel && control.cancel->cancelled()) return true;
        raw.resize(static_cast<std::size_t>(std::min(kChunk, end - at)));
        if (auto s = cache::readThroughCache(session.context(), channel, at, raw, control); !s) {
            error = s.error().describe();
            return false;
        }
        for (std::size_t i = 0; i < raw.size(); ++i) {
            const std::int64_t k = at + static_cast<std::int64_t>(i) - first;
            const auto col = static_cast<std::size_t>(perSample ? k : k * width / n);
            if (raw[i] == core::kNoSample) {
                hasNaN[col] = true;
                continue;
            }
            const std::int32_t v = bitsOf(bits, raw[i]);
            lo[col] = std::min(lo[col], v);
            hi[col] = std::max(hi[col], v);
        }
    }
    t.x.reserve(static_cast<std::size_t>(2 * width));
    t.y.reserve(static_cast<std::size_t>(2 * width));
    for (std::int64_t c = 0; c < width; ++c) {
        const auto u = static_cast<std::size_t>(c);
        const std::int64_t a = first + c * n / width, b = first + (c + 1) * n / width;
        const core::TimeRange span{grid.timeOf(a), grid.timeOf(b)};
        const double x = secondsFrom(info.start, perSample ? span.start : span.start + span.duration() / 2);
        if (hasNaN[u]) nan.push_back(span);
        if (lo[u] > hi[u]) {
            t.x.push_back(x);
            t.y.push_back(kNaN);
        } else if (perSample || lo[u] == hi[u]) {
            t.x.push_back(x);
            t.y.push_back(lo[u]);
        } else {
            t.x.insert(t.x.end(), {x, x});
            t.y.insert(t.y.end(), {static_cast<double>(lo[u]), static_cast<double>(hi[u])});
        }
    }
    return true;
}

// The time spans of the channel's blocks found damaged so far, within grid [first, end).
std::vector<core::TimeRange> damagedRuns(const view::ViewSession& session, std::size_t channel, std::int64_t first,
                                         std::int64_t end)
{
    std::vector<core::TimeRange> runs;
    const cache::ViewContext& view = session.context();
    if (!view.damaged || !view.source) return runs;
    const std::span<const core::BlockSpan> blocks = view.source->blocks(channel);
    const core::SampleGrid grid = session.info().channels.at(channel).grid();
    for (std::size_t b : view.damaged->blocksOf(channel)) {
        if (b >= blocks.size()) continue;
        const std::int64_t from = std::max(first, blocks[b].first);
        const std::int64_t to = std::min(end, blocks[b].first + static_cast<std::int64_t>(blocks[b].count));
        if (from < to) runs.push_back({grid.timeOf(from), grid.timeOf(to)});
    }
    return unionRanges(std::move(runs));
}

// A lane's damage: that of every channel it sums, at the lane's samples.
std::vector<core::TimeRange> laneDamage(const view::ViewSession& session, const FrameRequest& request,
                                        std::size_t channel, std::int64_t first, std::int64_t end)
{
    if (!request.montage || !request.montage->isLane(channel)) return damagedRuns(session, channel, first, end);
    std::vector<core::TimeRange> runs;
    for (const montage::DerivationPart& p : request.montage->plan(channel).parts) {
        const std::vector<core::TimeRange> own = damagedRuns(session, p.channel, first + p.shift, end + p.shift);
        runs.insert(runs.end(), own.begin(), own.end());
    }
    return unionRanges(std::move(runs));
}

} // namespace

const core::ChannelInfo& shownChannel(const view::ViewSession& session, const FrameRequest& request,
                                      std::size_t channel)
{
    return request.montage ? request.montage->info.channels.at(channel) : session.info().channels.at(channel);
}

std::pair<std::int64_t, std::int64_t> traceSpan(const core::ChannelInfo& ch, const FrameRequest& request)
{
    const core::SampleGrid grid = ch.grid();
    return {std::max<std::int64_t>(0, grid.firstIndexAtOrAfter(request.range.start)),
            std::min(ch.gridLength, grid.firstIndexAtOrAfter(request.range.end))};
}

bool drawnAsSamples(const FrameRequest& request, std::int64_t first, std::int64_t end)
{
    return request.exact &&
           static_cast<double>(end - first) <= static_cast<double>(request.columns) * kSamplesPerColumnLimit;
}

std::string computedTraceKey(std::size_t channel, const filter::FilterSpec* spec, std::int64_t first, std::int64_t end,
                             std::size_t columns, bool samples)
{
    return std::to_string(channel) + "|" + (spec ? filter::filterSpecText(*spec) : std::string()) + "|" +
           std::to_string(first) + "|" + std::to_string(end) + "|" + std::to_string(columns) + (samples ? "|s" : "|e");
}

ChannelTrace buildTrace(view::ViewSession& session, const FrameRequest& request, std::size_t channel,
                        const core::CancelToken& cancel, std::string& error, const PreparedLanes* prepared)
{
    const core::RecordingInfo& info = session.info();
    const core::ChannelInfo& ch = shownChannel(session, request, channel);
    if (ch.irregular) return buildIrregularTrace(session.context(), request, channel, cancel, error); // no grid
    const bool lane = request.montage && request.montage->isLane(channel);
    ChannelTrace t;
    t.channel = channel;
    const auto [first, end] = traceSpan(ch, request);
    if (end <= first || request.columns == 0) return t;
    const std::vector<core::TimeRange> gaps = unionRanges(ch.gaps);
    core::ReadControl control;
    control.cancel = &cancel;
    std::vector<core::TimeRange> nan;
    const bool samples = drawnAsSamples(request, first, end);
    const auto bits = request.bitViews.find(channel);
    const bool asBits = !lane && bits != request.bitViews.end() && bits->second != BitView::Value;
    const auto filtered = request.filters.find(channel);
    const bool filter =
        !asBits && filtered != request.filters.end() && filtered->second.any() && end - first <= kFilterLimit;
    // A lane sums decoded samples: none beyond the filter's limit (the label says so) and none in a coarse frame;
    // there it is drawn from its envelopes once they are computed (as long as a column holds a chunk).
    if (lane && (end - first > kFilterLimit || !request.exact)) {
        if (!request.envelopes || request.envelopes->montage != request.montage ||
            !laneEnvelopePoints(*request.envelopes, channel, ch.grid(), info.start, first, end, request.columns, t))
            return t;
        addBreaks(t, clipRanges(gaps, request.range), info.start);
        robustExtent(t);
        return t;
    }
    const bool computed = filter || lane;
    if (computed && !request.exact) return t; // a coarse frame never decodes: the lane waits for the exact frame
    const filter::FilterSpec* spec = filter ? &filtered->second : nullptr;
    const std::string key =
        computed ? computedTraceKey(channel, spec, first, end, request.columns, samples) : std::string();
    if (computed && request.filtered)
        if (auto kept = request.filtered->find(key)) return std::move(*kept);
    if (asBits) {
        if (!bitPoints(session, request, channel, bits->second, first, end, control, t, nan, error)) return t;
        t.nanRuns = subtractRanges(unionRanges(std::move(nan)), gaps);
    } else if (computed) {
        const PreparedValues* values = nullptr;
        if (prepared)
            if (const auto it = prepared->find(channel); it != prepared->end()) values = &it->second;
        if (!computedPoints(session, request, channel, spec, first, end, samples, control, t, nan, error, values))
            return t;
        t.nanRuns = subtractRanges(unionRanges(std::move(nan)), gaps);
    } else if (samples) {
        if (!samplePoints(session, channel, first, end, control, t, nan, error)) return t;
        t.nanRuns = subtractRanges(unionRanges(std::move(nan)), gaps);
    } else {
        if (!envelopePoints(session, request, channel, first, end, control, t, nan, error)) return t;
        t.nanRuns = unionRanges(std::move(nan));
    }
    t.damagedRuns = laneDamage(session, request, channel, first, end); // missing samples, but not NaN runs
    if (!t.damagedRuns.empty()) t.nanRuns = subtractRanges(t.nanRuns, t.damagedRuns);
    std::vector<core::TimeRange> breaks = clipRanges(gaps, request.range);
    breaks.insert(breaks.end(), t.nanRuns.begin(), t.nanRuns.end());
    breaks.insert(breaks.end(), t.damagedRuns.begin(), t.damagedRuns.end());
    addBreaks(t, std::move(breaks), info.start);
    robustExtent(t);
    if (computed && request.filtered && !(control.cancel && control.cancel->cancelled())) request.filtered->put(key, t);
    return t;
}

std::shared_ptr<TraceFrame> buildFrame(view::ViewSession& session, const FrameRequest& request,
                                       const core::CancelToken& cancel)
{
    auto frame = std::make_shared<TraceFrame>();
    frame->id = request.id;
    frame->range = request.range;
    frame->columns = request.columns;
    frame->exact = request.exact;
    frame->samples = request.exact && !request.channels.empty();
    for (std::size_t c : request.channels) { // every channel drawn sample by sample
        const double n = static_cast<double>(request.range.duration()) / 1e6 * shownChannel(session, request, c).fs;
        frame->samples = frame->samples && n <= static_cast<double>(request.columns) * kSamplesPerColumnLimit;
    }
    // Channels side by side, each into its own slot.
    std::vector<std::size_t> indices(request.channels.size());
    std::iota(indices.begin(), indices.end(), std::size_t{0});
    frame->traces.resize(indices.size());
    std::vector<std::string> errors(indices.size());
    const PreparedLanes prepared = prepareFilteredLanes(session, request, cancel); // filtered side by side
    forEachInBackground(indices, [&](std::size_t k) {
        if (!cancel.cancelled())
            frame->traces[k] = buildTrace(session, request, request.channels[k], cancel, errors[k], &prepared);
    });
    if (cancel.cancelled()) return nullptr;
    const auto failed = std::find_if(errors.begin(), errors.end(), [](const std::string& e) { return !e.empty(); });
    if (failed != errors.end()) frame->error = *failed;
    frame->damage = session.damaged().takeMessages();
    return frame;
}

} // namespace lv::widgets
