// Several recordings' channels side by side on one time axis (merge --mode stack): e.g. EEG from one file and
// ECG from another, each channel keeping its own rate, scale and times.
#pragma once

#include "convert/MergeTimeline.h"
#include "core/Recording.h"

#include <memory>
#include <string>
#include <vector>

namespace lv::convert {

// - Channels: every input's, in input order. A name that more than one input holds is prefixed in each of them
//   with its input's file name without extension ("a:Fp1", "b:Fp1"; "a(2):Fp1" when two inputs share that
//   name too), said in a warning; the annotations on such a channel follow it.
// - Times: each channel keeps its own start and grid; the recording spans all of them. Inputs with relative times
//   are refused (no common axis).
// - Annotations: all inputs', in time order; warnings and damaged blocks carry their input's name or channel.
class StackedRecording final : public core::Recording {
public:
    static core::Result<std::unique_ptr<StackedRecording>> create(std::vector<std::unique_ptr<core::Recording>> parts);

    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override;
    std::vector<core::DamagedBlock> takeDamage() override;
    core::Status readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control) override;
    core::Result<core::SampleSpan> samplesIn(std::size_t channel, core::TimeRange range) override;
    std::string valueLabel(std::size_t channel, std::int32_t count) const override
    {
        return channel < m_sources.size()
                   ? m_parts[m_sources[channel].part]->valueLabel(m_sources[channel].channel, count)
                   : std::string();
    }

    // Every channel one part from one input.
    MergeTimeline timeline() const;

private:
    struct Source {
        std::size_t part = 0;
        std::size_t channel = 0;
    };

    StackedRecording() = default;
    std::vector<std::string> channelNames() const;

    std::vector<std::unique_ptr<core::Recording>> m_parts;
    std::vector<std::string> m_names; // each part's path
    std::vector<Source> m_sources;    // per stacked channel
    core::RecordingInfo m_info;
};

} // namespace lv::convert
