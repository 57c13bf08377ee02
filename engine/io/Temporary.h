// A temporary file or directory beside a target: locked while its writer lives, put in place without replacing.
#pragma once

#include "core/Error.h"
#include "io/NativeFile.h"

#include <string>

namespace lv::io {

// "<target>.tmp-<pid>-<n>", created exclusively and held under an exclusive flock() from its creation until it
// is published or dropped (on Windows: held open in a sharing mode that forbids deleting it). The kernel drops
// the lock when the process ends, however it ends (kill -9 included), so a temporary whose lock can be taken
// belongs to nobody: removeDeadTemporaries() removes those. The lock, not the pid in the name, decides: pid
// reuse, other pid namespaces (containers) and other hosts sharing the folder cannot make a live writer's
// temporary look dead.
class Temporary {
public:
    enum class Kind { File, Directory };

    Temporary() = default;
    ~Temporary(); // removes the temporary unless published
    Temporary(Temporary&& other) noexcept;
    Temporary& operator=(Temporary&& other) noexcept;
    Temporary(const Temporary&) = delete;
    Temporary& operator=(const Temporary&) = delete;

    // Removes the dead temporaries of `target`, then creates and locks a new one. A file is opened read-write
    // (mode 0666 less the umask); file() is its handle, owned by this object.
    static core::Result<Temporary> create(const std::string& target, Kind kind);

    // Renames the temporary to `target` unless something exists there (renameNoReplace); afterwards nothing is
    // removed. On failure the temporary stays (and is removed by the destructor).
    core::Status publish(const std::string& target);
    // Removes the temporary now (the destructor's work).
    void drop();

    const NativeFile& file() const { return m_file; }
    NativeFile& file() { return m_file; }
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
    NativeFile m_file;
    Kind m_kind = Kind::File;
};

// Removes every "<target>.tmp-*" whose lock can be taken (its writer is gone); a locked one is left alone, and
// so is one that cannot be opened (another user's).
void removeDeadTemporaries(const std::string& target);

// Moves `from` to `to` only if nothing exists at `to`, atomically: renameat2(RENAME_NOREPLACE) on Linux,
// renamex_np(RENAME_EXCL) on macOS, MoveFileExW on Windows (io/FileSystem.h); where the file system does not support
// that (EINVAL, ENOSYS, ENOTSUP), a file is hard-linked to `to` (link fails if `to` exists) and `from` unlinked. Only
// where neither works (a directory there, or a file system without hard links such as FAT) does it fall back to a check
// followed by rename(), which is not atomic. An existing `to` is a WriteFailed error (exit 4) "the output already
// exists; choose a new name" naming `to`.
core::Status renameNoReplace(const std::string& from, const std::string& to);

// The hard-link route of renameNoReplace, on its own (for files; exposed for tests).
core::Status linkNoReplace(const std::string& from, const std::string& to);

} // namespace lv::io
