// Annotations as files to hand on or take in: CSV (the columns of a CSV conversion's annotations file, seconds from
// the recording's start) and an EDF+ annotation file (one data record of 1 s holding every annotation as a
// TAL, as sleep scorings are kept), written whole (temporary file and rename) and read onto an open recording.
#pragma once

#include "core/Error.h"
#include "core/RecordingInfo.h"

#include <string>
#include <string_view>
#include <vector>

namespace lv::convert {

// By the extension: .csv or .edf (anything else is an InvalidArgument error). Replaces an existing file.
core::Status writeAnnotationFile(const std::vector<core::Annotation>& annotations, const core::RecordingInfo& info,
                                 const std::string& path);

// A .csv written as above (or by a CSV conversion: ISO onsets are used where given) or any EDF+/BDF+ file's
// annotations, onto `info`'s times. An error names the file and the row or annotation that does not fit: a time
// outside the recording, a channel it does not have, a cell that does not read.
core::Result<std::vector<core::Annotation>> readAnnotationFile(const std::string& path,
                                                               const core::RecordingInfo& info);

// readAnnotationFile of a CSV's text (`path` names it in errors; fuzz_annotation_csv).
core::Result<std::vector<core::Annotation>> parseAnnotationsCsv(std::string_view text, const std::string& path,
                                                                const core::RecordingInfo& info);

} // namespace lv::convert
