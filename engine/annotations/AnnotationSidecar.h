// The user's own annotations of a recording, never written into it: a JSON sidecar beside the recording
// ("<recording>.longview-annotations.json"), or in the user's data folder when the recording's folder cannot be
// written. Times are kept from the recording's start (so they hold under level-1 access and date shifts) and the
// recording is recognised by its length and channel names. The format is documented in engine/README.md.
#pragma once

#include "core/Error.h"
#include "core/RecordingInfo.h"

#include <string>
#include <string_view>
#include <vector>

namespace lv::annotations {

// Which recording a sidecar belongs to.
struct RecordingIdentity {
    std::string file;          // the recording's file or folder name (for the reader of the file; not checked)
    core::Uutc durationUs = 0; // end - start
    std::vector<std::string> channels;
};

struct Sidecar {
    RecordingIdentity recording;
    std::vector<core::Annotation> annotations; // times from the recording's start (0 = its first instant), sorted
};

inline constexpr std::string_view kSidecarSuffix = ".longview-annotations.json";

RecordingIdentity identityOf(const core::RecordingInfo& info);

// "<recordingPath>.longview-annotations.json" (a session folder's sidecar sits beside the folder).
std::string sidecarBeside(const std::string& recordingPath);
// "<dataDirectory>/annotations/<hash of the absolute path>.json".
std::string sidecarInDataFolder(const std::string& recordingPath, const std::string& dataDirectory);
// $LONGVIEW_DATA_DIR, else $XDG_DATA_HOME/longview, else ~/.local/share/longview; empty when none can be named.
std::string defaultDataDirectory();
// The sidecar of a recording that has one: beside it, else in the data folder; empty when there is none.
std::string findSidecar(const std::string& recordingPath, const std::string& dataDirectory);

// The file's text as a sidecar, or a Corrupt error naming `file` and the byte where the problem is.
core::Result<Sidecar> parseSidecar(std::string_view text, const std::string& file);
std::string formatSidecar(const Sidecar& sidecar);
core::Result<Sidecar> readSidecar(const std::string& file);
// Writes the sidecar beside the recording (temporary file and rename), or, when that folder cannot be written,
// in the data folder; returns the path written.
core::Result<std::string> saveSidecar(const Sidecar& sidecar, const std::string& recordingPath,
                                      const std::string& dataDirectory);

// The user's annotations of an opened recording, in its times (uUTC), sorted; none when it has no sidecar. An
// error when the sidecar is unreadable or belongs to another recording (its length or channels differ).
core::Result<std::vector<core::Annotation>> loadUserAnnotations(const core::RecordingInfo& info,
                                                                const std::string& recordingPath,
                                                                const std::string& dataDirectory);
// A sidecar of `annotations` (uUTC) for an opened recording.
Sidecar sidecarOf(const core::RecordingInfo& info, const std::vector<core::Annotation>& annotations);

} // namespace lv::annotations
