// A recording read through another under a description of its own (channels renamed, the user's annotations
// added, identity removed): reads, warnings, damage and block access are the inner recording's.
#pragma once

#include "core/Recording.h"

#include <memory>
#include <string>
#include <vector>

namespace lv::convert {

class DescribedRecording : public core::Recording {
public:
    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override
    {
        return m_inner->readRaw(slices, control);
    }
    std::vector<std::string> takeWarnings() override { return m_inner->takeWarnings(); }
    std::vector<core::DamagedBlock> takeDamage() override { return m_inner->takeDamage(); }
    const core::BlockSource* blockSource() const override { return m_inner->blockSource(); }
    // Times as the description gives them: the inner recording's moved by m_shiftUs (grid channels follow their
    // described grids through the defaults).
    core::Status readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control) override;
    core::Result<core::SampleSpan> samplesIn(std::size_t channel, core::TimeRange range) override;
    std::string valueLabel(std::size_t channel, std::int32_t count) const override
    {
        return m_inner->valueLabel(channel, count);
    }

protected:
    DescribedRecording() = default;
    std::unique_ptr<core::Recording> m_inner;
    core::RecordingInfo m_info; // the description given out
    std::int64_t m_shiftUs = 0; // description time - inner time
};

} // namespace lv::convert
