// Filtered channels: each read widened by the filter's settling margin, filtered as physical values between gaps,
// and stored again as counts of the source's resolution.
#include "filter/FilteredRecording.h"

#include "core/TimeFormat.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lv::filter {

namespace {

std::string hz(double v) { return core::formatNumber(v, 6) + "Hz"; }

} // namespace

std::string edfPrefilter(const FilterSpec& s)
{
    std::string out;
    const auto add = [&](const std::string& part) { out += (out.empty() ? "" : " ") + part; };
    if (s.highPassHz > 0) add("HP:" + hz(s.highPassHz));
    if (s.lowPassHz > 0) add("LP:" + hz(s.lowPassHz));
    if (s.bandPassHighHz > 0) add("HP:" + hz(s.bandPassLowHz) + " LP:" + hz(s.bandPassHighHz));
    if (s.bandStopHighHz > 0)
        add("BS:" + core::formatNumber(s.bandStopLowHz, 6) + "-" + core::formatNumber(s.bandStopHighHz, 6) + "Hz");
    if (s.notchHz > 0) add("N:" + hz(s.notchHz));
    return out;
}

core::Result<std::unique_ptr<FilteredRecording>> FilteredRecording::create(std::unique_ptr<core::Recording> inner,
                                                                           const FilterSpec& spec,
                                                                           const std::vector<std::size_t>& channels)
{
    std::unique_ptr<FilteredRecording> r(new FilteredRecording());
    r->m_inner = std::move(inner);
    r->m_info = r->m_inner->info();
    r->m_spec = spec;
    r->m_filters.resize(r->m_info.channels.size());
    r->m_clipped = std::vector<std::atomic<bool>>(r->m_info.channels.size());
    if (!spec.any()) return r;
    for (std::size_t c : channels) {
        if (c >= r->m_info.channels.size()) continue;
        core::ChannelInfo& ch = r->m_info.channels[c];
        const auto refuse = [&](const std::string& why) {
            return core::makeError(core::ErrorCode::InvalidArgument, "channel " + ch.name + ": " + why, r->m_info.path);
        };
        if (ch.irregular)
            return refuse("it is sampled at irregular times, and a filter needs a sampling grid: give --resample "
                          "RATE too");
        auto sos = designFilter(spec, ch.fs);
        if (!sos) return refuse(sos.error().message);
        const long long margin = settleSamples(*sos);
        if (margin < 0) return refuse("the filter is not stable at its rate (" + core::formatNumber(ch.fs, 6) + " Hz)");
        ch.offset *= dcGain(*sos);
        ch.prefilter = (ch.prefilter.empty() ? "" : ch.prefilter + " ") + edfPrefilter(spec); // after the source's
        ch.labelled = false;
        r->m_filters[c] = ChannelFilter{std::move(*sos), margin};
    }
    return r;
}

std::string FilteredRecording::note() const
{
    if (!m_spec.any()) return {};
    return "filtered " + filterSpecText(m_spec) +
           (m_spec.phase == Phase::Zero ? " (zero-phase, restarted at every gap)"
                                        : " (causal, restarted at every gap)");
}

// One inner read for all slices, each filtered one widened by its margin; then each filtered on the runner.
core::Status FilteredRecording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    std::vector<std::vector<std::int32_t>> wide(slices.size());
    std::vector<std::int64_t> wideFirst(slices.size());
    std::vector<core::RawSlice> inner;
    inner.reserve(slices.size());
    for (std::size_t i = 0; i < slices.size(); ++i) {
        const core::RawSlice& s = slices[i];
        if (s.channel >= m_filters.size() || !m_filters[s.channel]) {
            inner.push_back(s);
            continue;
        }
        const std::int64_t margin = m_filters[s.channel]->margin, length = m_info.channels[s.channel].gridLength;
        const std::int64_t from = std::max<std::int64_t>(0, s.firstSample - margin);
        const std::int64_t to = std::max(from, std::min(length, s.firstSample + std::ssize(s.out) + margin));
        wideFirst[i] = from;
        wide[i].resize(static_cast<std::size_t>(to - from));
        inner.push_back({s.channel, from, wide[i]});
    }
    LV_TRY(m_inner->readRaw(inner, control));
    std::vector<core::Status> results(slices.size());
    const auto job = [&](std::size_t i) {
        if (slices[i].channel < m_filters.size() && m_filters[slices[i].channel])
            results[i] = filterSlice(slices[i], wide[i], wideFirst[i]);
    };
    core::runEach(control.runner, slices.size(), job);
    for (core::Status& s : results) LV_TRY(std::move(s));
    return {};
}

core::Status FilteredRecording::filterSlice(const core::RawSlice& slice, std::span<const std::int32_t> wide,
                                            std::int64_t wideFirst)
{
    const core::ChannelInfo& source = m_inner->info().channels[slice.channel];
    const double factor = source.conversionFactor, offset = m_info.channels[slice.channel].offset;
    std::vector<double> values(wide.size());
    for (std::size_t i = 0; i < wide.size(); ++i)
        values[i] = wide[i] == core::kNoSample ? std::nan("") : static_cast<double>(wide[i]) * factor + source.offset;
    filterRuns(m_filters[slice.channel]->sos, values, m_spec.phase);
    bool clipped = false;
    const std::size_t skip = static_cast<std::size_t>(slice.firstSample - wideFirst);
    for (std::size_t i = 0; i < slice.out.size(); ++i) {
        const std::size_t at = skip + i;
        const double count = at < values.size() ? std::round((values[at] - offset) / factor) : std::nan("");
        const bool fits =
            count > std::numeric_limits<std::int32_t>::min() && count <= std::numeric_limits<std::int32_t>::max();
        clipped = clipped || (std::isfinite(count) && !fits);
        slice.out[i] = fits ? static_cast<std::int32_t>(count) : core::kNoSample;
    }
    if (clipped) m_clipped[slice.channel] = true;
    return {};
}

std::vector<std::string> FilteredRecording::takeWarnings()
{
    std::vector<std::string> out = m_inner->takeWarnings();
    for (std::size_t c = 0; c < m_clipped.size(); ++c)
        if (m_clipped[c].exchange(false)) {
            out.push_back("channel " + m_info.channels[c].name +
                          ": filtered values beyond 2^31 steps of its resolution are written as missing");
        }
    return out;
}

} // namespace lv::filter
