// An open file of the operating system: positioned reads and writes, size, sync, locks and read-ahead hints. With
// FileSystem.h and MemoryPages.h the engine's only door to the system: POSIX in NativeFilePosix.cpp, Win32 in
// NativeFileWin32.cpp. Offsets and sizes are bytes; a failure is a SystemError, worded by the caller.
#pragma once

#include "io/SystemError.h"

#include <cstdint>
#include <filesystem>
#include <span>

namespace lv::io {

class NativeFile {
public:
    enum class Mode {
        Read,      // an existing file, read-only
        ReadWrite, // an existing file
        CreateNew, // a new file, read-write (Exists if something is there)
        Folder,    // an existing folder, for locking it (POSIX) and syncing its entries
    };

    NativeFile() = default;
    ~NativeFile();
    NativeFile(NativeFile&& other) noexcept;
    NativeFile& operator=(NativeFile&& other) noexcept;
    NativeFile(const NativeFile&) = delete;
    NativeFile& operator=(const NativeFile&) = delete;

    SystemError open(const std::filesystem::path& path, Mode mode);
    bool isOpen() const;
    bool isRegularFile() const;
    // A second handle on the same open file (its own position and flags; the same locks).
    SystemError duplicate(NativeFile& copy) const;

    // Reads [offset, offset + out.size()); `done` is what was read, less than asked only at the end of the file.
    SystemError readAt(std::uint64_t offset, std::span<std::uint8_t> out, std::size_t& done) const;
    // Writes all of `bytes` at `offset`; `done` is what was written before a failure.
    SystemError writeAt(std::uint64_t offset, std::span<const std::uint8_t> bytes, std::size_t& done);
    SystemError size(std::uint64_t& bytes) const;
    SystemError truncate(std::uint64_t size);
    SystemError syncData(); // the data and the size reach the disk
    SystemError syncAll();  // and every other attribute
    SystemError close();

    // An exclusive lock held until the file is closed by every handle; `wait` false fails at once when another
    // holds it. Win32 gives no such lock across handles of one writer: there the sharing mode of the temporaries
    // plays its part (see removeIfAbandoned) and this succeeds.
    bool lockExclusive(bool wait);
    // Whether `path` still names this open file (not removed or replaced since it was opened).
    bool isAt(const std::filesystem::path& path) const;

    // Hints, never errors: [offset, offset + size) will be read soon; its written pages may go to the disk now.
    void willNeed(std::uint64_t offset, std::uint64_t size) const;
    void startWriteBack(std::uint64_t offset, std::uint64_t size);
    // Writes that bypass the page cache (O_DIRECT: aligned offsets, sizes and buffers) where the file system
    // takes them; false where it does not (then writes stay buffered).
    bool setDirect(bool on);

private:
#ifdef _WIN32
    void* m_handle = nullptr; // HANDLE, nullptr when closed
#else
    int m_fd = -1;
#endif
};

} // namespace lv::io
