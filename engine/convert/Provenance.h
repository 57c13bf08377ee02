// Where an output came from (source paths, source format, the tool and its version): what writers record in the
// place their format has for it (MEF's session description, the CSV side file's "source").
#pragma once

#include "core/RecordingInfo.h"

#include <string>
#include <vector>

namespace lv::convert {

struct Provenance {
    std::vector<std::string> sources; // the inputs' absolute paths; empty when de-identified (anonymized)
    std::string format;               // the source's format as its reader names it ("EDF+C", "MEF 3.0", ...)
    std::string tool;                 // "Longview"
    std::string version;              // core::kVersion
    bool deidentified = false;        // anonymized: the paths are left out on purpose
    bool datesShifted = false;        // the times were moved (by an amount not recorded here)
    std::string processing;           // what was done to the values ("filtered hp=0.5 (zero-phase, ...)"), or ""

    bool empty() const { return tool.empty(); }
    // "converted by Longview 0.1.0 from EDF+C /data/r1.edf", "... from MEF 3.0 (de-identified, dates shifted)",
    // "... from merged (EDF+C, MEF 3.0) /a.edf, /b.mefd (dates shifted)", then "; " and the processing if any;
    // empty when empty().
    std::string text() const;
};

// The provenance of a conversion of `inputs` (made absolute) whose recording's format is `format`; the paths left
// out when `anonymized`.
Provenance provenanceOf(const std::vector<std::string>& inputs, const std::string& format, bool anonymized,
                        bool datesShifted);
// `given`, or when it is empty (a writer called without a job: the viewer's export) the recording's own path (none
// when it has none, as a de-identified recording has not) and format.
Provenance provenanceOr(const Provenance& given, const core::RecordingInfo& info);

} // namespace lv::convert
