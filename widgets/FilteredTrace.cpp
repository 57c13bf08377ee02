// The page widened by filter::settleSamples on each side, read once through the cache (each channel a lane sums),
// filtered with filter::filterRuns, and cropped back to the page.
#include "FilteredTrace.h"

#include "MontageLanes.h"
#include "TraceBuilder.h"

#include "cache/ViewContext.h"
#include "filter/Filtering.h"

#include <algorithm>
#include <cmath>
#include <limits>

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

std::size_t FilteredTraceCache::hits() const
{
    std::lock_guard lock(m_mutex);
    return m_hits;
}

namespace {

// Counts [from, to) of a recorded channel, scaled by `weight`, added into `values` (NaN where missing).
bool addChannel(view::ViewSession& session, std::size_t channel, std::int64_t from, std::int64_t to, double weight,
                const core::ReadControl& control, std::vector<double>& values, std::string& error)
{
    const core::ChannelInfo& ch = session.info().channels.at(channel);
    const std::int64_t a = std::clamp<std::int64_t>(from, 0, ch.gridLength);
    const std::int64_t b = std::clamp<std::int64_t>(to, a, ch.gridLength);
    std::vector<std::int32_t> raw(static_cast<std::size_t>(b - a));
    if (auto s = cache::readThroughCache(session.context(), channel, a, raw, control); !s) {
        error = s.error().describe();
        return false;
    }
    for (std::int64_t i = from; i < to; ++i) {
        double& v = values[static_cast<std::size_t>(i - from)];
        const std::int32_t count = i >= a && i < b ? raw[static_cast<std::size_t>(i - a)] : core::kNoSample;
        v = count == core::kNoSample ? kNaN
                                     : v + weight * (static_cast<double>(count) * ch.conversionFactor + ch.offset);
    }
    return true;
}

} // namespace

bool laneValues(view::ViewSession& session, const MontageLanes* montage, std::size_t channel, std::int64_t from,
                std::int64_t to, const core::ReadControl& control, std::vector<double>& values, std::string& error)
{
    values.assign(static_cast<std::size_t>(std::max<std::int64_t>(0, to - from)), 0.0);
    if (!montage || !montage->isLane(channel))
        return addChannel(session, channel, from, to, 1.0, control, values, error);
    for (const montage::DerivationPart& p : montage->plan(channel).parts)
        if (!addChannel(session, p.channel, from + p.shift, to + p.shift, p.scale, control, values, error))
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
                    std::string& error)
{
    const core::RecordingInfo& info = session.info();
    const core::ChannelInfo& ch = shownChannel(session, request, channel);
    std::optional<filter::Sos> sos;
    if (spec) {
        auto designed = filter::designFilter(*spec, ch.fs);
        if (!designed) {
            error = ch.name + ": " + designed.error().message;
            return false;
        }
        sos = std::move(*designed);
    }
    std::vector<double> v;
    std::int64_t from = 0;
    if (!filteredLaneValues(session, request.montage.get(), channel, ch.gridLength, sos ? &*sos : nullptr,
                            spec ? spec->phase : filter::Phase::Zero, first, end, control, v, from, error))
        return false;
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
