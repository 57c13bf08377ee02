// Irregular channels put on a sampling grid for the formats that need one (EDF, BDF, MEF), without bridging gaps.
#pragma once

#include "core/Recording.h"

#include <memory>
#include <string>
#include <vector>

namespace lv::convert {

struct ResampleOptions {
    double rate = 0.0;       // Hz; 0: no resampling
    std::int64_t holdUs = 0; // the longest a value is held; 0: kIrregularGapFactor median intervals per channel
    bool requested() const { return rate > 0.0; }
};

// Each irregular channel of `channels` becomes a grid channel at `rate`, starting at its first sample's
// microsecond (rounded up): a grid point takes the count of the last sample at or before it when that sample is
// less than the hold old, else it holds no sample (a gap: a value is never carried across a longer silence, nor
// interpolated). Invalid samples hold kNoSample until the next sample. Grid channels and the other channels pass
// through unchanged. Segments and gaps are those of the held values.
class ResampledRecording final : public core::Recording {
public:
    static core::Result<std::unique_ptr<ResampledRecording>> create(std::unique_ptr<core::Recording> inner,
                                                                    const ResampleOptions& options,
                                                                    const std::vector<std::size_t>& channels,
                                                                    const core::ReadControl& control);

    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override { return m_inner->takeWarnings(); }
    std::vector<core::DamagedBlock> takeDamage() override { return m_inner->takeDamage(); }
    core::Status readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control) override;
    core::Result<core::SampleSpan> samplesIn(std::size_t channel, core::TimeRange range) override;
    std::string valueLabel(std::size_t channel, std::int32_t count) const override
    {
        return m_inner->valueLabel(channel, count);
    }

    // What was done, one line per resampled channel ("channel X: irregular (median 9.8 Hz), resampled to ...").
    const std::vector<std::string>& notes() const { return m_notes; }

private:
    ResampledRecording() = default;
    core::Status resample(std::size_t channel, const core::ReadControl& control);
    core::Status readHeld(const core::RawSlice& slice, const core::ReadControl& control);

    std::unique_ptr<core::Recording> m_inner;
    core::RecordingInfo m_info;
    std::vector<std::int64_t> m_holdNs; // per channel; 0: passed through
    std::vector<std::string> m_notes;
    double m_rate = 0.0;
    std::int64_t m_holdUs = 0;
};

} // namespace lv::convert
