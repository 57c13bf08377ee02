// Opens any recording the engine reads, choosing the format from the path.
#pragma once

#include "core/Recording.h"

#include <memory>
#include <string>

namespace lv::formats {

struct OpenRequest {
    std::string path;
    std::string password;            // for encrypted formats; empty for none
    std::string snapshotDirectory;   // metadata snapshots (formats/mef3/Snapshot.h); empty: none
    bool deferSnapshotCheck = false; // MEF 3.0: serve a snapshot unchecked (mef3::OpenOptions::deferSnapshotCheck)
};

core::Result<std::unique_ptr<core::Recording>> openRecording(const OpenRequest& request);

// An error naming what `path` is when it cannot be a recording: missing, a symlink loop, a FIFO, a device or a
// socket. Regular files and directories pass (their contents are checked by the readers).
core::Status checkRecordingPath(const std::string& path);

// A regular file named *.edf / *.bdf (any case), or one that starts like an EDF or BDF header.
bool looksLikeEdf(const std::string& path);

} // namespace lv::formats
