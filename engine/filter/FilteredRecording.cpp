// Filtered channels: each read widened by the filter's settling margin, filtered as physical values between gaps,
// and stored again as counts of the source's resolution.
#include "filter/FilteredRecording.h"

#include "filter/CascadeLanes.h"
#include "filter/Filtering.h"

#include "core/TimeFormat.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

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

// One inner read for all slices, each filtered one widened by its margin; then the filtered ones on the runner, in
// groups of one rate and span filtered side by side.
core::Status FilteredRecording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    std::vector<std::vector<std::int32_t>> wide(slices.size());
    std::vector<std::int64_t> wideFirst(slices.size());
    std::vector<core::RawSlice> inner;
    inner.reserve(slices.size());
    std::map<std::tuple<double, std::int64_t, std::size_t>, std::vector<std::size_t>> byRateAndSpan;
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
        byRateAndSpan[{m_info.channels[s.channel].fs, from, wide[i].size()}].push_back(i);
    }
    LV_TRY(m_inner->readRaw(inner, control));
    std::vector<std::vector<std::size_t>> groups;
    for (const auto& [_, members] : byRateAndSpan)
        for (std::size_t k = 0; k < members.size(); k += cascadeLanes())
            groups.emplace_back(members.begin() + static_cast<std::ptrdiff_t>(k),
                                members.begin() +
                                    static_cast<std::ptrdiff_t>(std::min(members.size(), k + cascadeLanes())));
    core::runEach(control.runner, groups.size(),
                  [&](std::size_t g) { filterGroup(slices, groups[g], wide, wideFirst); });
    return {};
}

void FilteredRecording::filterGroup(std::span<const core::RawSlice> slices, std::span<const std::size_t> group,
                                    const std::vector<std::vector<std::int32_t>>& wide,
                                    const std::vector<std::int64_t>& wideFirst)
{
    std::vector<std::vector<double>> values;
    for (const std::size_t i : group) values.push_back(physicalValues(slices[i].channel, wide[i]));
    std::vector<std::span<double>> xs(values.begin(), values.end());
    filterRunsTogether(m_filters[slices[group.front()].channel]->sos, xs, m_spec.phase);
    for (std::size_t k = 0; k < group.size(); ++k) storeCounts(slices[group[k]], values[k], wideFirst[group[k]]);
}

std::vector<double> FilteredRecording::physicalValues(std::size_t channel, std::span<const std::int32_t> wide) const
{
    const core::ChannelInfo& source = m_inner->info().channels[channel];
    std::vector<double> values(wide.size());
    for (std::size_t i = 0; i < wide.size(); ++i)
        values[i] = wide[i] == core::kNoSample ? std::nan("")
                                               : static_cast<double>(wide[i]) * source.conversionFactor + source.offset;
    return values;
}

// The filtered values of the slice, back to counts of the channel's step (missing where they do not fit).
void FilteredRecording::storeCounts(const core::RawSlice& slice, const std::vector<double>& values,
                                    std::int64_t wideFirst)
{
    const double factor = m_inner->info().channels[slice.channel].conversionFactor;
    const double offset = m_info.channels[slice.channel].offset;
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
