// Session fingerprints for metadata snapshots: what a write changes, taken at a cost per channel that does not grow
// with its number of segments (folders listed by name, stats only for files that can change in place).
#pragma once

#include "core/Error.h"
#include "io/FileTree.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

struct SessionLayout;

// One channel folder: its own modification time, its entry names (hashed), its files (channel records) with size and
// time, and the full listing of its last segment folder (where appends happen).
struct ChannelStamp {
    std::string dir;                        // tree path of the .timd folder
    std::int64_t mtimeNs = 0;               // the folder's modification time
    std::uint64_t entries = 0;              // number of entries
    std::uint64_t namesHash = 0;            // order-independent hash of the entry names and kinds
    std::vector<io::TreeEntry> files;       // entries that are not folders: name, size, time
    std::string lastSegmentDir;             // tree path of the last *.segd by name; empty without segments
    std::vector<io::TreeEntry> lastSegment; // its listing: names, sizes, times
};

struct Fingerprint {
    std::string root;     // the tree root on disk: the session folder (or a .timd's parent), or the archive
    bool archive = false; // then only `archiveFile` (size and time) counts
    io::TreeEntry archiveFile;
    std::string sessionDir;             // tree path of the session folder
    std::vector<io::TreeEntry> session; // its entries: folders by name only, files with size and time
    std::vector<ChannelStamp> channels; // in the recording's channel order
};

// What differs between a fingerprint and the session now. A session-level change (an entry of the session folder,
// a session records file, a channel added or removed, an archive) needs a full open; otherwise only the channels
// listed changed.
struct SnapshotCheck {
    enum class State { Fresh, Stale, Unknown }; // Unknown: the recording was opened without snapshots
    State state = State::Unknown;
    bool sessionChanged = false;
    std::vector<std::size_t> changedChannels;
    bool fresh() const { return state == State::Fresh; }
};

// The fingerprint of a session just discovered (its channel folders as `layout` lists them).
core::Result<Fingerprint> takeFingerprint(const SessionLayout& layout);

// Takes the fingerprint of the same folders as `then` again and compares: `now` is what a snapshot saved after
// reloading the changed channels records.
struct Recheck {
    SnapshotCheck check;
    Fingerprint now;
};
Recheck recheckFingerprint(const Fingerprint& then);

} // namespace lv::formats::mef3
