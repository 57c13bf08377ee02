// Metadata snapshots: an opened session's channels, gaps, annotations and block references in one file in a cache
// folder, so that the next open reads that file instead of every metadata and index file. The file has a small
// zstd frame for the description and one frame per channel for its blocks, decompressed on the channel's first
// use. A snapshot is trusted only while its fingerprint (Fingerprint.h) matches the session; a damaged or other-
// version file is never trusted (a checksum covers all of it). Sessions with passwords are not snapshotted.
#pragma once

#include "core/Error.h"
#include "formats/mef3/Fingerprint.h"

#include <memory>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

class MefRecording;

// $LONGVIEW_SNAPSHOT_DIR, else $XDG_CACHE_HOME/longview/snapshots, else ~/.cache/longview/snapshots; empty
// (snapshots off) when LONGVIEW_NO_SNAPSHOT is set or no folder can be named.
std::string defaultSnapshotDirectory();

// The snapshot file for a session path in `directory` (named by a hash of the absolute path).
std::string snapshotFile(const std::string& directory, const std::string& sessionPath);

// Writes the snapshot (temporary file + rename); failures only cost the next open its speed. Channels the
// recording still holds as snapshot frames are copied as they are.
core::Status saveSnapshot(const MefRecording& recording, const Fingerprint& fingerprint, const std::string& directory);

// The recording a snapshot holds, NOT checked against the session (MefRecording::checkSnapshot does that), or an
// error when there is none or it is damaged or of another version. Reads and checks the whole file, decompresses
// only the description; each channel's blocks are decoded on first use.
core::Result<std::unique_ptr<MefRecording>> readSnapshot(const std::string& sessionPath, const std::string& directory);

// readSnapshot of a file's bytes (`file` names it in errors): the recording of session `sessionPath`, or when
// null of the session the snapshot names (for tests and fuzzing).
core::Result<std::unique_ptr<MefRecording>> parseSnapshot(std::vector<std::uint8_t> bytes, const std::string& file,
                                                          const std::string* sessionPath);

// readSnapshot, then checked: also an error when the session changed since.
core::Result<std::unique_ptr<MefRecording>> loadSnapshot(const std::string& sessionPath, const std::string& directory);

} // namespace lv::formats::mef3
