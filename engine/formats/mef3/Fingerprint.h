// Session fingerprints for metadata snapshots: what a write changes. Taking one lists each channel folder by name
// (no stat per entry); checking one costs a fixed number of system calls per channel, whatever its segments.
#pragma once

#include "core/Error.h"
#include "io/FileTree.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

struct SessionLayout;
struct ChannelFiles;

// One file (or folder) as stat gives it. Rewriting it moves its size or times; copying over it with preserved
// times (cp -p, touch -r) still moves its status-change time, which no call can set; replacing it (rename, a new
// archive) gives another inode.
struct FileStamp {
    std::uint64_t size = 0;
    std::int64_t mtimeNs = 0;
    std::int64_t ctimeNs = 0;
    std::uint64_t inode = 0;
    bool operator==(const FileStamp&) const = default;
};
core::Result<FileStamp> stampFile(const std::string& path);

// What a read of one segment depends on: its folder, .tmet, .tidx and .tdat, then its records (.rdat, .ridx)
// when it has them, in this order (segmentStampPaths).
using SegmentStamp = std::vector<FileStamp>;
// The tree paths a segment's stamp covers, from its data file's tree path ("<folder>/<base>.tdat").
std::vector<std::string> segmentStampPaths(const std::string& dataPath, bool withRecords);
// Every segment of a channel folder, stamped before its files are read (so that a write during the open is seen
// by the next check); `root` is the tree root on disk.
core::Result<std::vector<SegmentStamp>> stampSegments(const std::string& root, const ChannelFiles& files);
// Whether segment `stamp` (of data file `dataPath`) is unchanged on disk.
bool segmentUnchanged(const std::string& root, const std::string& dataPath, const SegmentStamp& stamp);

// One channel folder: its own times, its entry names (hashed), its files (channel records) with size and time,
// and the full listing of its last segment folder (where appends happen).
struct ChannelStamp {
    std::string dir;                  // tree path of the .timd folder
    std::int64_t mtimeNs = 0;         // the folder's modification time
    std::int64_t ctimeNs = 0;         // its status-change time: moved by every entry change, and by any utime call
    std::int64_t stampedAtNs = 0;     // wall clock just before the folder was read
    std::uint64_t entries = 0;        // number of entries
    std::uint64_t namesHash = 0;      // order-independent hash of the entry names and kinds
    std::vector<io::TreeEntry> files; // entries that are not folders: name, size, time
    std::string lastSegmentDir;       // tree path of the last *.segd by name; empty without segments
    std::vector<io::TreeEntry> lastSegment; // its listing: names, sizes, times
};

// A checked channel folder whose times are unchanged and whose status-change time was already this much older than
// the stamp is not listed again: an entry added, removed or renamed since would have moved that time (it cannot be
// set back), provided the file system's clock and ours agree within this margin. Younger folders (changed close to
// the stamp, maybe within one tick of the file system's clock) are listed and their names compared.
inline constexpr std::int64_t kSettledFolderNs = 10'000'000'000;

struct Fingerprint {
    std::string root;     // the tree root on disk: the session folder (or a .timd's parent), or the archive
    bool archive = false; // then only `archiveFile` and `archiveStamp` count
    io::TreeEntry archiveFile;
    FileStamp archiveStamp;
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

// Compares the session now with `then` (cost per channel independent of its number of segments, see
// kSettledFolderNs): `now` is what a snapshot saved after reloading the changed channels records.
struct Recheck {
    SnapshotCheck check;
    Fingerprint now;
};
Recheck recheckFingerprint(const Fingerprint& then);

} // namespace lv::formats::mef3
