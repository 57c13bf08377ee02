// The file system calls std::filesystem does not offer: stat with nanosecond times and file ids, fast listing,
// atomic no-replace moves, folder sync, sweeping abandoned temporaries. POSIX in FileSystemPosix.cpp, Win32 in
// FileSystemWin32.cpp.
#pragma once

#include "io/SystemError.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string_view>

namespace lv::io {

struct FileStatus {
    enum class Kind { Regular, Directory, Fifo, CharacterDevice, BlockDevice, Socket, Other };
    Kind kind = Kind::Other;
    std::uint64_t size = 0;   // bytes (0 for folders)
    std::int64_t mtimeNs = 0; // last modification, ns since 1970
    std::int64_t ctimeNs = 0; // last status change (POSIX); creation on Windows
    std::uint64_t fileId = 0; // inode, or the NTFS file index
};

// Follows symbolic links.
SystemError statPath(const std::filesystem::path& path, FileStatus& status);

// Calls visit(name, isDirectory) for each entry of a folder but "." and ".." (name in UTF-8), until it returns
// false. One pass over the folder; kinds from the listing itself where the file system gives them.
SystemError forEachEntry(const std::filesystem::path& folder,
                         const std::function<bool(std::string_view name, bool isDirectory)>& visit);

// Moves `from` to `to` only if nothing is at `to`, atomically: renameat2(RENAME_NOREPLACE) on Linux,
// renamex_np(RENAME_EXCL) on macOS, MoveFileExW without replacing on Windows. Unsupported where the file system
// cannot (then the caller chooses a fallback); Exists when `to` is there.
SystemError moveNoReplace(const std::filesystem::path& from, const std::filesystem::path& to);

// Moves `from` over `to`, replacing it atomically (rename; MoveFileExW with MOVEFILE_REPLACE_EXISTING).
SystemError moveReplacing(const std::filesystem::path& from, const std::filesystem::path& to);

// Makes the entries of `folder` (a rename, a new file) durable: fsync of the folder on POSIX; on Windows the
// file system journals its metadata and there is nothing to call.
SystemError syncFolder(const std::filesystem::path& folder);

// Creates one folder; Exists when something is there.
SystemError createFolder(const std::filesystem::path& folder);

// Removes the temporary file or folder at `path` if no live writer holds it: on POSIX one whose flock() can be
// taken (the kernel drops a writer's lock however the writer ends); on Windows one that opens without sharing
// (such an open fails while any handle on it is open). Leaves what it cannot open.
void removeIfAbandoned(const std::filesystem::path& path);

// This process's id.
std::uint64_t processId();

} // namespace lv::io
