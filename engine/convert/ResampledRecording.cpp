// Irregular channels on a grid: the last sample at or before each grid point, held at most the hold time.
#include "convert/ResampledRecording.h"

#include "core/TimeFormat.h"

#include <algorithm>
#include <cmath>

namespace lv::convert {

namespace {

// The first microsecond at or after a time in ns.
core::Uutc ceilUs(std::int64_t ns) { return core::nsToUs(ns - 1) + 1; }

std::string number(double v) { return core::formatNumber(v, 6); }

} // namespace

core::Result<std::unique_ptr<ResampledRecording>> ResampledRecording::create(std::unique_ptr<core::Recording> inner,
                                                                             const ResampleOptions& options,
                                                                             const std::vector<std::size_t>& channels,
                                                                             const core::ReadControl& control)
{
    if (!core::plausibleSamplingRate(options.rate))
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "the resampling rate " + number(options.rate) + " Hz is not a usable sampling rate");
    if (options.holdUs < 0)
        return core::makeError(core::ErrorCode::InvalidArgument, "the hold time must not be negative");
    std::unique_ptr<ResampledRecording> r(new ResampledRecording());
    r->m_inner = std::move(inner);
    r->m_info = r->m_inner->info();
    r->m_rate = options.rate;
    r->m_holdUs = options.holdUs;
    r->m_holdNs.assign(r->m_info.channels.size(), 0);
    for (std::size_t c : channels)
        if (c < r->m_info.channels.size() && r->m_info.channels[c].irregular) LV_TRY(r->resample(c, control));
    return r;
}

// Walks the channel's times in chunks and describes the grid the held values cover.
core::Status ResampledRecording::resample(std::size_t channel, const core::ReadControl& control)
{
    core::ChannelInfo& ch = m_info.channels[channel];
    const double medianHz = ch.fs;
    const std::int64_t holdNs =
        m_holdUs > 0 ? core::usToNs(m_holdUs)
                     : core::saturatingRound(core::kIrregularGapFactor * 1e9 / (medianHz > 0 ? medianHz : 1.0));
    m_holdNs[channel] = std::max<std::int64_t>(holdNs, 1);
    const std::int64_t samples = ch.sampleCount;
    ch.irregular = false;
    ch.timeBase = -1;
    ch.fs = m_rate;
    ch.segments.clear();
    ch.gaps.clear();
    ch.sampleCount = ch.gridLength = 0;
    if (samples == 0) return {};
    constexpr std::int64_t kChunk = std::int64_t{1} << 20;
    std::vector<std::int64_t> times;
    core::SampleGrid grid{0, m_rate};
    std::int64_t runStart = -1, runEnd = -1;
    const auto cover = [&](std::int64_t from, std::int64_t until) { // sample at `from` held until `until` (ns)
        const std::int64_t a = grid.firstIndexAtOrAfter(ceilUs(from));
        const std::int64_t b = grid.firstIndexAtOrAfter(ceilUs(std::min(until, core::saturatingAdd(from, holdNs))));
        if (b <= a) return;
        if (runEnd >= 0 && a <= runEnd) {
            runEnd = std::max(runEnd, b);
            return;
        }
        if (runEnd >= 0) ch.segments.push_back({grid.timeOf(runStart), grid.timeOf(runEnd)});
        ch.sampleCount += runEnd >= 0 ? runEnd - runStart : 0;
        runStart = a, runEnd = b;
    };
    std::int64_t previous = 0;
    for (std::int64_t at = 0; at < samples; at += kChunk) {
        if (control.cancel && control.cancel->cancelled())
            return core::makeError(core::ErrorCode::Cancelled, "cancelled", m_info.path);
        times.resize(static_cast<std::size_t>(std::min(kChunk, samples - at)));
        const core::TimeSlice slice{channel, at, times};
        LV_TRY(m_inner->readTimes(std::span(&slice, 1), control));
        if (at == 0) grid.origin = ceilUs(times.front());
        for (std::size_t i = 0; i < times.size(); ++i) {
            if (at + static_cast<std::int64_t>(i) > 0) cover(previous, times[i]);
            previous = times[i];
        }
    }
    cover(previous, std::numeric_limits<std::int64_t>::max());
    if (runEnd >= 0) ch.segments.push_back({grid.timeOf(runStart), grid.timeOf(runEnd)});
    ch.sampleCount += runEnd >= 0 ? runEnd - runStart : 0;
    for (std::size_t s = 1; s < ch.segments.size(); ++s)
        ch.gaps.push_back({ch.segments[s - 1].end, ch.segments[s].start});
    ch.start = grid.origin;
    ch.gridLength = runEnd >= 0 ? runEnd : 0;
    ch.end = grid.timeOf(ch.gridLength);
    m_notes.push_back("channel " + ch.name + ": sampled at irregular times (median " + number(medianHz) +
                      " Hz), resampled to " + number(m_rate) + " Hz, each value held at most " +
                      number(static_cast<double>(m_holdNs[channel]) / 1e9) + " s and never across a longer gap");
    return {};
}

core::Status ResampledRecording::readHeld(const core::RawSlice& slice, const core::ReadControl& control)
{
    const core::ChannelInfo& ch = m_info.channels[slice.channel];
    std::fill(slice.out.begin(), slice.out.end(), core::kNoSample);
    if (slice.out.empty()) return {};
    const core::SampleGrid grid = ch.grid();
    const std::int64_t holdNs = m_holdNs[slice.channel];
    const std::int64_t last = slice.firstSample + static_cast<std::int64_t>(slice.out.size()) - 1;
    const core::TimeRange range{core::saturatingAdd(grid.timeOf(slice.firstSample), -(holdNs / 1000 + 2)),
                                core::saturatingAdd(grid.timeOf(last), 1)};
    auto held = core::readTimed(*m_inner, slice.channel, range, control);
    if (!held) return held.error();
    std::size_t next = 0; // samples [0, next) lie at or before the grid point
    for (std::size_t j = 0; j < slice.out.size(); ++j) {
        const std::int64_t t = core::usToNs(grid.timeOf(slice.firstSample + static_cast<std::int64_t>(j)));
        while (next < held->timesNs.size() && held->timesNs[next] <= t) ++next;
        if (next > 0 && t - held->timesNs[next - 1] < holdNs) slice.out[j] = held->raw[next - 1];
    }
    return {};
}

core::Status ResampledRecording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    std::vector<core::RawSlice> passed;
    for (const core::RawSlice& s : slices) {
        if (s.channel >= m_holdNs.size())
            return core::makeError(core::ErrorCode::InvalidArgument, "no channel number " + std::to_string(s.channel));
        if (m_holdNs[s.channel] == 0)
            passed.push_back(s);
        else
            LV_TRY(readHeld(s, control));
    }
    return passed.empty() ? core::Status{} : m_inner->readRaw(passed, control);
}

core::Status ResampledRecording::readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control)
{
    for (const core::TimeSlice& s : slices) {
        if (s.channel < m_holdNs.size() && m_holdNs[s.channel] == 0)
            LV_TRY(m_inner->readTimes(std::span(&s, 1), control));
        else
            LV_TRY(Recording::readTimes(std::span(&s, 1), control));
    }
    return {};
}

core::Result<core::SampleSpan> ResampledRecording::samplesIn(std::size_t channel, core::TimeRange range)
{
    if (channel < m_holdNs.size() && m_holdNs[channel] == 0) return m_inner->samplesIn(channel, range);
    return Recording::samplesIn(channel, range);
}

} // namespace lv::convert
