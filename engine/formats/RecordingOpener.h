// Opens any recording the engine reads, choosing the format from the path.
#pragma once

#include "core/Recording.h"

#include <memory>
#include <string>
#include <vector>

namespace lv::formats {

struct OpenRequest {
    std::string path;
    std::string password;            // for encrypted formats; empty for none
    std::string snapshotDirectory;   // metadata snapshots (formats/mef3/Snapshot.h); empty: none
    bool deferSnapshotCheck = false; // MEF 3.0: serve a snapshot unchecked (mef3::OpenOptions::deferSnapshotCheck)
};

core::Result<std::unique_ptr<core::Recording>> openRecording(const OpenRequest& request);

// A format openRecording reads, as a user picks it. The one list of readable formats: every place that offers or
// accepts inputs (the viewer's Open dialogs and drop, the Merge dialog, help texts) is built from it, so a new format
// shows everywhere at once.
struct ReadableFormat {
    std::string name;                  // "EDF / EDF+": what the user knows it as
    std::vector<std::string> patterns; // file name patterns, lower case ("*.edf"); matched in any case
    bool folder = false;               // a directory (chosen with a folder dialog), not a file
};
const std::vector<ReadableFormat>& readableFormats();
// The format whose pattern `path`'s name matches (any case; a trailing '/' ignored), or nullptr. By name only: it
// never touches the disk (an EDF file of another name is still read by content).
const ReadableFormat* readableFormatOf(const std::string& path);

// An error naming what `path` is when it cannot be a recording: missing, a symlink loop, a FIFO, a device or a
// socket. Regular files and directories pass (their contents are checked by the readers).
core::Status checkRecordingPath(const std::string& path);

// A regular file named *.edf / *.bdf (any case), or one that starts like an EDF or BDF header.
bool looksLikeEdf(const std::string& path);

} // namespace lv::formats
