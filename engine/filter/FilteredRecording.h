// Channels filtered as a reader asks (FilterSpec), for conversions that write filtered data.
#pragma once

#include "core/Recording.h"
#include "filter/FilterSpec.h"

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lv::filter {

// Each channel of `channels` filtered: zero-phase (forward and backward) or causal, restarted at every gap and
// NaN run, computed over each read plus settleSamples() on both sides, and stored again as counts of the
// source's resolution (its offset times the filter's DC gain: 0 after a high-pass). Other channels pass through.
// ChannelInfo::prefilter says the filter in EDF's words.
class FilteredRecording final : public core::Recording {
public:
    // InvalidArgument naming the channel when it has no grid (irregular: resample it first), or when the filter
    // does not fit its rate.
    static core::Result<std::unique_ptr<FilteredRecording>>
    create(std::unique_ptr<core::Recording> inner, const FilterSpec& spec, const std::vector<std::size_t>& channels);

    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override;
    std::vector<core::DamagedBlock> takeDamage() override { return m_inner->takeDamage(); }
    core::Status readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control) override
    {
        return m_inner->readTimes(slices, control);
    }
    core::Result<core::SampleSpan> samplesIn(std::size_t channel, core::TimeRange range) override
    {
        return m_inner->samplesIn(channel, range);
    }
    std::string valueLabel(std::size_t channel, std::int32_t count) const override
    {
        return m_filters[channel] ? std::string() : m_inner->valueLabel(channel, count);
    }

    // "filtered hp=0.5,lp=70,notch=50 (zero-phase, restarted at every gap)": for the output's provenance.
    std::string note() const;

private:
    struct ChannelFilter {
        Sos sos;
        std::int64_t margin = 0; // samples read on each side of a slice
    };

    FilteredRecording() = default;
    // Slices (indices into `slices`) of channels with one rate and one widened span, filtered side by side.
    void filterGroup(std::span<const core::RawSlice> slices, std::span<const std::size_t> group,
                     const std::vector<std::vector<std::int32_t>>& wide, const std::vector<std::int64_t>& wideFirst);
    std::vector<double> physicalValues(std::size_t channel, std::span<const std::int32_t> wide) const;
    void storeCounts(const core::RawSlice& slice, const std::vector<double>& values, std::int64_t wideFirst);

    std::unique_ptr<core::Recording> m_inner;
    core::RecordingInfo m_info;
    FilterSpec m_spec;
    std::vector<std::optional<ChannelFilter>> m_filters; // per channel; nullopt: passed through
    std::vector<std::atomic<bool>> m_clipped;            // per channel: a filtered value did not fit a count
};

// EDF's prefiltering words for a spec: "HP:0.5Hz LP:70Hz N:50Hz" (BP/BS as "HP:1Hz LP:40Hz" / "BS:45-55Hz").
std::string edfPrefilter(const FilterSpec& spec);

} // namespace lv::filter
