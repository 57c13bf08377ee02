// The page widened by filter::settleSamples on each side, read once through the cache, filtered with
// filter::filterRuns, and cropped back to the page.
#include "FilteredTrace.h"

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

bool filteredPoints(view::ViewSession& session, const FrameRequest& request, std::size_t channel,
                    const filter::FilterSpec& spec, std::int64_t first, std::int64_t end, bool samples,
                    const core::ReadControl& control, ChannelTrace& t, std::vector<core::TimeRange>& nan,
                    std::string& error)
{
    const core::RecordingInfo& info = session.info();
    const core::ChannelInfo& ch = info.channels.at(channel);
    auto sos = filter::designFilter(spec, ch.fs);
    if (!sos) {
        error = ch.name + ": " + sos.error().message;
        return false;
    }
    const std::int64_t margin = std::max<long long>(0, filter::settleSamples(*sos));
    const std::int64_t from = std::max<std::int64_t>(0, first - margin), to = std::min(ch.gridLength, end + margin);
    std::vector<std::int32_t> raw(static_cast<std::size_t>(to - from));
    if (auto s = cache::readThroughCache(session.context(), channel, from, raw, control); !s) {
        error = s.error().describe();
        return false;
    }
    std::vector<double> v(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i)
        v[i] = raw[i] == core::kNoSample ? kNaN : static_cast<double>(raw[i]) * ch.conversionFactor;
    filter::filterRuns(*sos, v, spec.phase);
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
