// Conversion of any readable recording to a MEF 3.0 session, written beside the target and renamed at the end.
#pragma once

#include "convert/Provenance.h"
#include "core/Recording.h"

#include <string>
#include <vector>

namespace lv::convert {

struct MefExportOptions {
    std::vector<std::size_t> channels; // all when empty
    core::TimeRange range;             // half-open, uUTC
    double blockSeconds = 0.0;         // 0: the writer's default (formats::mef3::defaultBlockSamples)
    std::string level1Password;
    std::string level2Password;
    Provenance provenance{}; // its text() becomes the session description (empty: the recording's path and format)
};

// Writes the session `outPath` (".mefd"): raw counts are copied (a channel's offset folded into them), gaps stay gaps,
// annotations in the range become records, the provenance goes into every segment's section 2 as the session
// description. A start before 1970 with true dates is refused (MEF reads stored times below zero as offset). The target
// must not exist; nothing is left behind on failure or cancellation.
core::Status exportMef(core::Recording& recording, const MefExportOptions& options, const std::string& outPath,
                       const core::ReadControl& control);

} // namespace lv::convert
