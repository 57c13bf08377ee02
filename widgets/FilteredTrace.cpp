// The page widened by filter::settleSamples on each side, read once through the cache (each channel a lane sums),
// filtered with filter::filterRuns, and cropped back to the page.
#include "FilteredTrace.h"

#include "MontageLanes.h"
#include "ThreadPriority.h"
#include "TraceBuilder.h"

#include "cache/ViewContext.h"
#include "filter/CascadeLanes.h"
#include "filter/FilterSpec.h"
#include "filter/Filtering.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>

namespace lv::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

} // namespace

std::optional<ChannelTrace> FilteredTraceCache::find(const std::string& key)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_index.find(key);
    if (it == m_index.end()) return std::nullopt;
    m_entries.splice(m_entries.begin(), m_entries, it->second);
    ++m_hits;
    return it->second->second;
}

void FilteredTraceCache::put(const std::string& key, const ChannelTrace& trace)
{
    std::lock_guard lock(m_mutex);
    if (m_index.count(key)) return;
    m_entries.emplace_front(key, trace);
    m_index[key] = m_entries.begin();
    if (m_entries.size() > m_capacity) {
        m_index.erase(m_entries.back().first);
        m_entries.pop_back();
    }
}

bool FilteredTraceCache::contains(const std::string& key) const
{
    std::lock_guard lock(m_mutex);
    return m_index.count(key) != 0;
}

std::size_t FilteredTraceCache::hits() const
{
    std::lock_guard lock(m_mutex);
    return m_hits;
}

namespace {

// The physical values of samples [from, to) of a recorded channel (NaN where missing), from `memo` when it holds
// them, else read through the cache (and kept in `memo`).
const std::vector<double>* physicalValues(view::ViewSession& session, std::size_t channel, std::int64_t from,
                                          std::int64_t to, const core::ReadControl& control, ValueMemo* memo,
                                          std::vector<double>& own, std::string& error)
{
    if (memo)
        if (const auto it = memo->find({channel, from, to}); it != memo->end()) return &it->second;
    const core::ChannelInfo& ch = session.info().channels.at(channel);
    const std::int64_t a = std::clamp<std::int64_t>(from, 0, ch.gridLength);
    const std::int64_t b = std::clamp<std::int64_t>(to, a, ch.gridLength);
    std::vector<std::int32_t> raw(static_cast<std::size_t>(b - a));
    if (auto s = cache::readThroughCache(session.context(), channel, a, raw, control); !s) {
        error = s.error().describe();
        return nullptr;
    }
    std::vector<double>& values = memo ? (*memo)[{channel, from, to}] : own;
    values.resize(static_cast<std::size_t>(std::max<std::int64_t>(0, to - from)));
    for (std::int64_t i = from; i < to; ++i) {
        const std::int32_t count = i >= a && i < b ? raw[static_cast<std::size_t>(i - a)] : core::kNoSample;
        values[static_cast<std::size_t>(i - from)] =
            count == core::kNoSample ? kNaN : static_cast<double>(count) * ch.conversionFactor + ch.offset;
    }
    return &values;
}

// Samples [from, to) of a recorded channel in physical units, scaled by `weight`, added into `values` (NaN where
// missing).
bool addChannel(view::ViewSession& session, std::size_t channel, std::int64_t from, std::int64_t to, double weight,
                const core::ReadControl& control, ValueMemo* memo, std::vector<double>& values, std::string& error)
{
    std::vector<double> own;
    const std::vector<double>* physical = physicalValues(session, channel, from, to, control, memo, own, error);
    if (!physical) return false;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double p = (*physical)[i];
        values[i] = std::isnan(p) ? kNaN : values[i] + weight * p;
    }
    return true;
}

} // namespace

bool laneValues(view::ViewSession& session, const MontageLanes* montage, std::size_t channel, std::int64_t from,
                std::int64_t to, const core::ReadControl& control, std::vector<double>& values, std::string& error,
                ValueMemo* memo)
{
    values.assign(static_cast<std::size_t>(std::max<std::int64_t>(0, to - from)), 0.0);
    if (!montage || !montage->isLane(channel))
        return addChannel(session, channel, from, to, 1.0, control, memo, values, error);
    for (const montage::DerivationPart& p : montage->plan(channel).parts)
        if (!addChannel(session, p.channel, from + p.shift, to + p.shift, p.scale, control, memo, values, error))
            return false;
    return true;
}

bool filteredLaneValues(view::ViewSession& session, const MontageLanes* montage, std::size_t channel,
                        std::int64_t length, const filter::Sos* sos, filter::Phase phase, std::int64_t first,
                        std::int64_t end, const core::ReadControl& control, std::vector<double>& values,
                        std::int64_t& from, std::string& error)
{
    const std::int64_t margin = sos ? std::max<long long>(0, filter::settleSamples(*sos)) : 0;
    from = std::max<std::int64_t>(0, first - margin);
    if (!laneValues(session, montage, channel, from, std::min(length, end + margin), control, values, error))
        return false;
    if (sos) filter::filterRuns(*sos, values, phase);
    return true;
}

bool computedPoints(view::ViewSession& session, const FrameRequest& request, std::size_t channel,
                    const filter::FilterSpec* spec, std::int64_t first, std::int64_t end, bool samples,
                    const core::ReadControl& control, ChannelTrace& t, std::vector<core::TimeRange>& nan,
                    std::string& error, const PreparedValues* prepared)
{
    const core::RecordingInfo& info = session.info();
    const core::ChannelInfo& ch = shownChannel(session, request, channel);
    std::optional<filter::Sos> sos;
    if (spec && !prepared) {
        auto designed = filter::designFilter(*spec, ch.fs);
        if (!designed) {
            error = ch.name + ": " + designed.error().message;
            return false;
        }
        sos = std::move(*designed);
    }
    std::vector<double> computed;
    std::int64_t from = prepared ? prepared->from : 0;
    if (!prepared &&
        !filteredLaneValues(session, request.montage.get(), channel, ch.gridLength, sos ? &*sos : nullptr,
                            spec ? spec->phase : filter::Phase::Zero, first, end, control, computed, from, error))
        return false;
    const std::vector<double>& v = prepared ? prepared->values : computed;
    const core::SampleGrid grid = ch.grid();
    const double origin = static_cast<double>(grid.origin - info.start) / 1e6, step = 1.0 / grid.fs;
    const std::int64_t n = end - first;
    const auto width = samples ? n : std::min<std::int64_t>(n, static_cast<std::int64_t>(request.columns));
    std::int64_t runStart = -1;
    for (std::int64_t c = 0; c < width; ++c) {
        const std::int64_t a = first + c * n / width, b = first + (c + 1) * n / width;
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (std::int64_t i = a; i < b; ++i) {
            const double y = v[static_cast<std::size_t>(i - from)];
            if (std::isnan(y)) {
                if (runStart < 0) runStart = i;
                continue;
            }
            if (runStart >= 0) nan.push_back({grid.timeOf(runStart), grid.timeOf(i)});
            runStart = -1;
            lo = std::min(lo, y), hi = std::max(hi, y);
        }
        const double x = origin + (samples ? static_cast<double>(a) : 0.5 * static_cast<double>(a + b)) * step;
        if (lo > hi) {
            t.x.push_back(x);
            t.y.push_back(kNaN);
        } else if (samples || lo == hi) {
            t.x.push_back(x);
            t.y.push_back(lo);
        } else {
            t.x.insert(t.x.end(), {x, x});
            t.y.insert(t.y.end(), {lo, hi});
        }
    }
    if (runStart >= 0) nan.push_back({grid.timeOf(runStart), grid.timeOf(end)});
    return true;
}

namespace {

struct LaneJob {
    std::size_t channel = 0;
    std::int64_t first = 0, end = 0, length = 0;
    const filter::FilterSpec* spec = nullptr;
    double fs = 0;
};

// The frame's filtered traces that are not cached, grouped by filter, rate and span, in groups of at most
// filter::cascadeLanes().
std::vector<std::vector<LaneJob>> filteredGroups(const FrameRequest& request, const view::ViewSession& session)
{
    std::map<std::string, std::vector<LaneJob>> bySpec;
    for (const std::size_t c : request.channels) {
        const core::ChannelInfo& ch = shownChannel(session, request, c);
        const auto f = request.filters.find(c);
        const auto bits = request.bitViews.find(c);
        const bool lane = request.montage && request.montage->isLane(c);
        if (ch.irregular || f == request.filters.end() || !f->second.any() ||
            (!lane && bits != request.bitViews.end() && bits->second != BitView::Value))
            continue;
        const auto [first, end] = traceSpan(ch, request);
        if (end <= first || end - first > kFilterLimit || request.columns == 0) continue;
        const bool samples = drawnAsSamples(request, first, end);
        if (request.filtered &&
            request.filtered->contains(computedTraceKey(c, &f->second, first, end, request.columns, samples)))
            continue;
        const std::string group = filter::filterSpecText(f->second) + "|" + std::to_string(ch.fs) + "|" +
                                  std::to_string(first) + "|" + std::to_string(end);
        bySpec[group].push_back({c, first, end, ch.gridLength, &f->second, ch.fs});
    }
    std::vector<std::vector<LaneJob>> groups;
    for (auto& [_, jobs] : bySpec)
        for (std::size_t k = 0; k < jobs.size(); k += filter::cascadeLanes())
            groups.emplace_back(jobs.begin() + static_cast<std::ptrdiff_t>(k),
                                jobs.begin() +
                                    static_cast<std::ptrdiff_t>(std::min(jobs.size(), k + filter::cascadeLanes())));
    return groups;
}

// One group read lane by lane, then filtered together.
PreparedLanes prepareGroup(view::ViewSession& session, const FrameRequest& request, const std::vector<LaneJob>& jobs,
                           const core::ReadControl& control)
{
    auto sos = filter::designFilter(*jobs.front().spec, jobs.front().fs);
    if (!sos) return {};
    const std::int64_t margin = std::max<long long>(0, filter::settleSamples(*sos));
    PreparedLanes out;
    ValueMemo memo; // a channel summed by two lanes of the group is read once
    std::vector<std::span<double>> lanes;
    for (const LaneJob& job : jobs) {
        PreparedValues& p = out[job.channel];
        p.from = std::max<std::int64_t>(0, job.first - margin);
        std::string error;
        if (!laneValues(session, request.montage.get(), job.channel, p.from, std::min(job.length, job.end + margin),
                        control, p.values, error, &memo)) {
            out.erase(job.channel);
            continue;
        }
        lanes.emplace_back(p.values);
    }
    filter::filterRunsTogether(*sos, lanes, jobs.front().spec->phase);
    return out;
}

} // namespace

PreparedLanes prepareFilteredLanes(view::ViewSession& session, const FrameRequest& request,
                                   const core::CancelToken& cancel)
{
    if (!request.exact) return {};
    const std::vector<std::vector<LaneJob>> groups = filteredGroups(request, session);
    std::vector<PreparedLanes> prepared(groups.size());
    std::vector<std::size_t> indices(groups.size());
    std::iota(indices.begin(), indices.end(), std::size_t{0});
    core::ReadControl control;
    control.cancel = &cancel;
    forEachInBackground(indices, [&](std::size_t k) {
        if (!cancel.cancelled() && groups[k].size() > 1)
            prepared[k] = prepareGroup(session, request, groups[k], control);
    });
    PreparedLanes all;
    for (PreparedLanes& p : prepared) all.merge(p);
    return all;
}

std::int64_t filterMarginUs(const filter::FilterSpec& spec, const std::vector<double>& rates)
{
    if (!spec.any()) return 0;
    double seconds = 0;
    for (const double fs : rates)
        if (auto sos = filter::designFilter(spec, fs))
            seconds = std::max(seconds, static_cast<double>(filter::settleSamples(*sos)) / fs);
    return static_cast<std::int64_t>(std::ceil(seconds * 1e6));
}

} // namespace lv::widgets
