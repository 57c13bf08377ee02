// Conversion of any readable recording to EDF+ or BDF+ (gap policy: EDF+D, one file per part, or filled),
// written under a temporary name and renamed when complete.
#pragma once

#include "core/Recording.h"

#include <string>
#include <vector>

namespace lv::convert {

enum class GapPolicy {
    Discontinuous, // EDF+D/BDF+D: records without any sample are left out (gaps inside a record are filled)
    Split,         // one EDF+C/BDF+C file per continuous part: OUT_1.edf, OUT_2.edf, ... (OUT.edf when one)
    Fill,          // one EDF+C/BDF+C file, gaps filled with fillValue
};

struct EdfExportOptions {
    std::vector<std::size_t> channels; // all when empty
    core::TimeRange range;             // half-open, uUTC
    bool bdf = false;                  // 24-bit BDF+ instead of 16-bit EDF+
    GapPolicy gaps = GapPolicy::Discontinuous;
    double fillValue = 0.0; // physical value written where a channel has no sample (every filled run is annotated)
};

struct EdfExportResult {
    std::vector<std::string> files;    // written, in time order
    std::vector<std::string> warnings; // e.g. resolution lost to 16 bits
};

// An annotation's TAL text: its text, after its type unless that is EDF's own or a Note ("Spike: sharp wave"); a
// blank text gives the type (or "Annotation").
std::string edfAnnotationText(const core::Annotation& a);

// Writes `outPath` (.edf or .bdf; with Split possibly several files). Each data signal keeps its rate; the record
// duration gives whole samples per record for every rate and keeps records under 61,440 bytes. Physical ranges
// come from the data (the source's resolution kept when the digital range allows). Annotations (and one
// "Gap" annotation per filled run) are written as TALs. Existing targets are refused; nothing is left behind
// on failure or cancellation.
core::Result<EdfExportResult> exportEdf(core::Recording& recording, const EdfExportOptions& options,
                                        const std::string& outPath, const core::ReadControl& control);

} // namespace lv::convert
