// A recording with the user's own annotations (the sidecar's, annotations/AnnotationSidecar.h) added to its own:
// the description carries both, in time order; reads passed on.
#pragma once

#include "core/Recording.h"

#include <memory>
#include <vector>

namespace lv::convert {

class AnnotatedRecording final : public core::Recording {
public:
    // `extra` in the recording's times (uUTC); none: `inner` comes back as it is.
    static std::unique_ptr<core::Recording> wrap(std::unique_ptr<core::Recording> inner,
                                                 std::vector<core::Annotation> extra);

    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override
    {
        return m_inner->readRaw(slices, control);
    }
    std::vector<std::string> takeWarnings() override { return m_inner->takeWarnings(); }
    std::vector<core::DamagedBlock> takeDamage() override { return m_inner->takeDamage(); }
    const core::BlockSource* blockSource() const override { return m_inner->blockSource(); }

private:
    AnnotatedRecording() = default;
    std::unique_ptr<core::Recording> m_inner;
    core::RecordingInfo m_info;
};

} // namespace lv::convert
