// Envelope columns or decoded samples become points in physical units; gaps and NaN runs become line breaks.
#include "TraceBuilder.h"

#include "cache/Envelope.h"
#include "cache/ViewContext.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lv::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using Points = std::vector<std::pair<double, double>>;

double secondsFrom(core::Uutc origin, core::Uutc t) { return static_cast<double>(t - origin) / 1e6; }

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

} // namespace

ChannelTrace buildTrace(view::ViewSession& session, const FrameRequest& request, std::size_t channel,
                        const core::CancelToken& cancel, std::string& error)
{
    ChannelTrace t;
    t.channel = channel;
    const core::RecordingInfo& info = session.info();
    const core::ChannelInfo& ch = info.channels.at(channel);
    const core::SampleGrid grid = ch.grid();
    const std::int64_t first = std::max<std::int64_t>(0, grid.firstIndexAtOrAfter(request.range.start));
    const std::int64_t end = std::min(ch.gridLength, grid.firstIndexAtOrAfter(request.range.end));
    if (end <= first || request.columns == 0) return t;
    const std::int64_t n = end - first;
    const std::vector<core::TimeRange> gaps = unionRanges(ch.gaps);
    const double factor = ch.conversionFactor;
    core::ReadControl control;
    control.cancel = &cancel;
    Points points;
    std::vector<core::TimeRange> nan;

    const double columns = static_cast<double>(request.columns);
    if (request.exact && static_cast<double>(n) <= columns * kSamplesPerColumnLimit) {
        std::vector<std::int32_t> raw(static_cast<std::size_t>(n));
        if (auto s = cache::readThroughCache(session.context(), channel, first, raw, control); !s) {
            error = s.error().describe();
            return t;
        }
        points.reserve(raw.size() + gaps.size());
        std::int64_t runStart = -1;
        for (std::int64_t i = 0; i < n; ++i) {
            const std::int32_t v = raw[static_cast<std::size_t>(i)];
            const double x = secondsFrom(info.start, grid.timeOf(first + i));
            if (v == core::kNoSample) {
                points.emplace_back(x, kNaN);
                if (runStart < 0) runStart = i;
                continue;
            }
            points.emplace_back(x, static_cast<double>(v) * factor);
            if (runStart >= 0) nan.push_back({grid.timeOf(first + runStart), grid.timeOf(first + i)});
            runStart = -1;
        }
        if (runStart >= 0) nan.push_back({grid.timeOf(first + runStart), grid.timeOf(end)});
        t.nanRuns = subtractRanges(unionRanges(std::move(nan)), gaps);
    } else {
        const std::size_t width = std::min<std::size_t>(request.columns, static_cast<std::size_t>(n));
        const cache::EnvelopeRequest r{session.context().recording,        channel, first, end, width,
                                       request.exact ? request.smear : 1e9};
        auto envelope = cache::computeEnvelope(session.context(), r, control);
        if (!envelope) {
            error = envelope.error().describe();
            return t;
        }
        points.reserve(2 * width + gaps.size());
        const auto w = static_cast<std::int64_t>(width);
        for (std::size_t c = 0; c < width; ++c) {
            const std::int64_t a = first + static_cast<std::int64_t>(c) * n / w;
            const std::int64_t b = first + static_cast<std::int64_t>(c + 1) * n / w;
            const core::TimeRange span{grid.timeOf(a), grid.timeOf(b)};
            const double x = secondsFrom(info.start, span.start + span.duration() / 2);
            const cache::EnvelopeColumn& col = (*envelope)[c];
            if (col.hasData) {
                points.emplace_back(x, static_cast<double>(col.minimum) * factor);
                points.emplace_back(x, static_cast<double>(col.maximum) * factor);
            } else {
                points.emplace_back(x, kNaN);
            }
            // A NaN sample inside a block: a NaN run (at column resolution).
            if (col.hasNaN) nan.push_back(span);
        }
        t.nanRuns = unionRanges(std::move(nan));
    }
    for (const core::TimeRange& g : unionRanges([&] {
             auto all = clipRanges(gaps, request.range);
             all.insert(all.end(), t.nanRuns.begin(), t.nanRuns.end());
             return all;
         }()))
        points.emplace_back(secondsFrom(info.start, g.start + g.duration() / 2), kNaN);
    std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    t.x.reserve(points.size());
    t.y.reserve(points.size());
    for (const auto& [x, y] : points) {
        t.x.push_back(x);
        t.y.push_back(y);
    }
    robustExtent(t);
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
    for (std::size_t c : request.channels) {
        if (cancel.cancelled()) return nullptr;
        std::string error;
        const std::int64_t n = static_cast<std::int64_t>(static_cast<double>(request.range.duration()) / 1e6 *
                                                         session.info().channels.at(c).fs);
        frame->samples =
            request.exact && static_cast<double>(n) <= static_cast<double>(request.columns) * kSamplesPerColumnLimit;
        frame->traces.push_back(buildTrace(session, request, c, cancel, error));
        if (!error.empty() && frame->error.empty()) frame->error = error;
    }
    if (cancel.cancelled()) return nullptr;
    return frame;
}

} // namespace lv::widgets
