// NativeFile on Win32: CreateFileW with wide paths, ReadFile/WriteFile at OVERLAPPED offsets, FlushFileBuffers.
// Files are shared for reading, writing and deleting (so a temporary can be moved into place while open); a
// sweep's unshared open fails while any handle is open, so a live writer's temporary is never swept.
#include "io/NativeFile.h"

#include "io/SystemErrorWin32.h"

#include <utility>

namespace lv::io {

namespace {

HANDLE handleOf(void* h) { return static_cast<HANDLE>(h); }

OVERLAPPED at(std::uint64_t offset)
{
    OVERLAPPED o{};
    o.Offset = static_cast<DWORD>(offset & 0xffffffffu);
    o.OffsetHigh = static_cast<DWORD>(offset >> 32);
    return o;
}

constexpr DWORD kChunk = 1u << 30; // ReadFile/WriteFile take a DWORD count

} // namespace

NativeFile::~NativeFile()
{
    if (m_handle) ::CloseHandle(handleOf(m_handle));
}

NativeFile::NativeFile(NativeFile&& other) noexcept : m_handle(std::exchange(other.m_handle, nullptr)) {}

NativeFile& NativeFile::operator=(NativeFile&& other) noexcept
{
    if (this != &other) {
        if (m_handle) ::CloseHandle(handleOf(m_handle));
        m_handle = std::exchange(other.m_handle, nullptr);
    }
    return *this;
}

SystemError NativeFile::open(const std::filesystem::path& path, Mode mode)
{
    DWORD access = GENERIC_READ, creation = OPEN_EXISTING, flags = FILE_ATTRIBUTE_NORMAL;
    switch (mode) {
    case Mode::Read:
        break;
    case Mode::ReadWrite:
        access |= GENERIC_WRITE;
        break;
    case Mode::CreateNew:
        access |= GENERIC_WRITE;
        creation = CREATE_NEW;
        break;
    case Mode::Folder:
        flags = FILE_FLAG_BACKUP_SEMANTICS;
        break;
    }
    const HANDLE h = ::CreateFileW(path.c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                                   nullptr, creation, flags, nullptr);
    if (h == INVALID_HANDLE_VALUE) return lastWin32Error();
    *this = NativeFile();
    m_handle = h;
    return {};
}

bool NativeFile::isOpen() const { return m_handle != nullptr; }

bool NativeFile::isRegularFile() const
{
    BY_HANDLE_FILE_INFORMATION info{};
    return ::GetFileType(handleOf(m_handle)) == FILE_TYPE_DISK &&
           ::GetFileInformationByHandle(handleOf(m_handle), &info) &&
           !(info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY);
}

SystemError NativeFile::duplicate(NativeFile& copy) const
{
    HANDLE h = nullptr;
    const HANDLE self = ::GetCurrentProcess();
    if (!::DuplicateHandle(self, handleOf(m_handle), self, &h, 0, FALSE, DUPLICATE_SAME_ACCESS))
        return lastWin32Error();
    copy = NativeFile();
    copy.m_handle = h;
    return {};
}

SystemError NativeFile::readAt(std::uint64_t offset, std::span<std::uint8_t> out, std::size_t& done) const
{
    done = 0;
    while (done < out.size()) {
        OVERLAPPED o = at(offset + done);
        const DWORD want = static_cast<DWORD>(std::min<std::size_t>(out.size() - done, kChunk));
        DWORD got = 0;
        if (!::ReadFile(handleOf(m_handle), out.data() + done, want, &got, &o)) {
            const DWORD code = ::GetLastError();
            if (code == ERROR_HANDLE_EOF) break;
            return win32Error(code);
        }
        if (got == 0) break;
        done += got;
    }
    return {};
}

SystemError NativeFile::writeAt(std::uint64_t offset, std::span<const std::uint8_t> bytes, std::size_t& done)
{
    done = 0;
    while (done < bytes.size()) {
        OVERLAPPED o = at(offset + done);
        const DWORD want = static_cast<DWORD>(std::min<std::size_t>(bytes.size() - done, kChunk));
        DWORD put = 0;
        if (!::WriteFile(handleOf(m_handle), bytes.data() + done, want, &put, &o)) return lastWin32Error();
        if (put == 0) return win32Error(ERROR_DISK_FULL);
        done += put;
    }
    return {};
}

SystemError NativeFile::size(std::uint64_t& bytes) const
{
    LARGE_INTEGER n{};
    if (!::GetFileSizeEx(handleOf(m_handle), &n)) return lastWin32Error();
    bytes = static_cast<std::uint64_t>(n.QuadPart);
    return {};
}

SystemError NativeFile::truncate(std::uint64_t size)
{
    FILE_END_OF_FILE_INFO end{};
    end.EndOfFile.QuadPart = static_cast<LONGLONG>(size);
    if (!::SetFileInformationByHandle(handleOf(m_handle), FileEndOfFileInfo, &end, sizeof end)) return lastWin32Error();
    return {};
}

SystemError NativeFile::syncData()
{
    if (!::FlushFileBuffers(handleOf(m_handle))) return lastWin32Error();
    return {};
}

SystemError NativeFile::syncAll() { return syncData(); }

SystemError NativeFile::close()
{
    void* h = std::exchange(m_handle, nullptr);
    if (h && !::CloseHandle(handleOf(h))) return lastWin32Error();
    return {};
}

bool NativeFile::lockExclusive(bool) { return m_handle != nullptr; }

bool NativeFile::isAt(const std::filesystem::path& path) const
{
    NativeFile other;
    if (!other.open(path, Mode::Folder).ok()) return false; // backup semantics: files and folders
    BY_HANDLE_FILE_INFORMATION a{}, b{};
    return ::GetFileInformationByHandle(handleOf(m_handle), &a) &&
           ::GetFileInformationByHandle(handleOf(other.m_handle), &b) &&
           a.dwVolumeSerialNumber == b.dwVolumeSerialNumber && a.nFileIndexHigh == b.nFileIndexHigh &&
           a.nFileIndexLow == b.nFileIndexLow;
}

void NativeFile::willNeed(std::uint64_t, std::uint64_t) const {}

void NativeFile::startWriteBack(std::uint64_t, std::uint64_t) {}

bool NativeFile::setDirect(bool) { return false; } // FILE_FLAG_NO_BUFFERING is chosen at open only

} // namespace lv::io
