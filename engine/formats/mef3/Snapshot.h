// Metadata snapshots: an opened session's channels, gaps, blocks and annotations in one zstd-compressed file
// in a cache folder, so that the next open reads that file instead of every metadata and index file. A
// snapshot is used only while the session's fingerprint is unchanged: the listings of the session folder,
// of every channel folder and of every channel's last segment folder (names, sizes, modification times), or
// an archive's size and modification time. Sessions with passwords are not snapshotted.
#pragma once

#include "core/Error.h"
#include "formats/mef3/SessionLayout.h"

#include <memory>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

class MefRecording;

// $LONGVIEW_SNAPSHOT_DIR, else $XDG_CACHE_HOME/longview/snapshots, else ~/.cache/longview/snapshots; empty
// (snapshots off) when LONGVIEW_NO_SNAPSHOT is set or no folder can be named.
std::string defaultSnapshotDirectory();

// What an open checks a snapshot against: listings of the session's folders, or the archive's stat.
struct Fingerprint {
    struct Listing {
        std::string dir; // tree path
        std::vector<io::TreeEntry> entries;
    };
    std::vector<Listing> listings;
};
core::Result<Fingerprint> takeFingerprint(const SessionLayout& layout);

// The snapshot file for a session path in `directory` (named by a hash of the absolute path).
std::string snapshotFile(const std::string& directory, const std::string& sessionPath);

// Writes the snapshot (temporary file + rename); failures only cost the next open its speed.
core::Status saveSnapshot(const MefRecording& recording, const Fingerprint& fingerprint, const std::string& directory);

// The recording from a snapshot, or an error when there is none, it is damaged or of another version, or the
// session changed since (the caller then opens the session normally and saves a new snapshot).
core::Result<std::unique_ptr<MefRecording>> loadSnapshot(const std::string& sessionPath, const std::string& directory);

} // namespace lv::formats::mef3
