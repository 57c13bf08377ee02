// A recording prepared for sharing: identifying text removed and every time moved by whole days (a resolved
// Deidentification), the samples read straight through (the grids only move with the times).
#pragma once

#include "convert/Deidentify.h"
#include "convert/DescribedRecording.h"

#include <memory>
#include <string>
#include <vector>

namespace lv::convert {

class DeidentifiedRecording final : public DescribedRecording {
public:
    // `inner` de-identified as `d` says (`inner` itself when d asks for nothing). With anonymize: the subject is
    // {id = d.subjectId} alone, the site, every channel description, the recording's description and its path
    // empty, and a damaged block's file is called "the source". With a shift: the recording's, channels', segments',
    // gaps' and annotations' times move by d.shiftUs(). With dropAnnotationText: annotation texts empty (types kept).
    static std::unique_ptr<core::Recording> wrap(std::unique_ptr<core::Recording> inner, const Deidentification& d);

    std::vector<std::string> takeWarnings() override;
    std::vector<core::DamagedBlock> takeDamage() override;

    // The name a damaged block's file goes by in an anonymized output.
    static constexpr const char* kAnonymousSource = "the source";

private:
    DeidentifiedRecording() = default;
    bool m_anonymize = false;
    std::vector<std::string> m_warnings; // the resolution's, given out with the first takeWarnings
};

} // namespace lv::convert
