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

} // namespace lv::formats
