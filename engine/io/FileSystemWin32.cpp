// FileSystem on Win32: GetFileInformationByHandle, FindFirstFileExW, MoveFileExW; names converted from and to UTF-8.
#include "io/FileSystem.h"

#include "io/NativeFile.h"
#include "io/Path.h"
#include "io/SystemErrorWin32.h"

#include <string>

namespace lv::io {

namespace {

// FILETIME (100 ns since 1601) to ns since 1970.
std::int64_t nanoseconds(const FILETIME& t)
{
    const std::int64_t ticks = (std::int64_t{t.dwHighDateTime} << 32) | t.dwLowDateTime;
    return (ticks - 116'444'736'000'000'000) * 100;
}

struct FindHandle {
    HANDLE h = INVALID_HANDLE_VALUE;
    ~FindHandle()
    {
        if (h != INVALID_HANDLE_VALUE) ::FindClose(h);
    }
};

} // namespace

SystemError statPath(const std::filesystem::path& path, FileStatus& status)
{
    const HANDLE h =
        ::CreateFileW(path.c_str(), FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                      nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (h == INVALID_HANDLE_VALUE) return lastWin32Error();
    BY_HANDLE_FILE_INFORMATION info{};
    const BOOL got = ::GetFileInformationByHandle(h, &info);
    const DWORD type = ::GetFileType(h);
    const DWORD code = ::GetLastError();
    ::CloseHandle(h);
    if (!got) return win32Error(code);
    using K = FileStatus::Kind;
    const bool folder = info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY;
    status.kind = folder                   ? K::Directory
                  : type == FILE_TYPE_DISK ? K::Regular
                  : type == FILE_TYPE_PIPE ? K::Fifo
                                           : K::Other;
    status.size = folder ? 0 : (std::uint64_t{info.nFileSizeHigh} << 32) | info.nFileSizeLow;
    status.mtimeNs = nanoseconds(info.ftLastWriteTime);
    status.ctimeNs = nanoseconds(info.ftCreationTime);
    status.fileId = (std::uint64_t{info.nFileIndexHigh} << 32) | info.nFileIndexLow;
    return {};
}

SystemError forEachEntry(const std::filesystem::path& folder,
                         const std::function<bool(std::string_view name, bool isDirectory)>& visit)
{
    WIN32_FIND_DATAW entry{};
    FindHandle find;
    const std::wstring pattern = (folder / L"*").wstring();
    find.h = ::FindFirstFileExW(pattern.c_str(), FindExInfoBasic, &entry, FindExSearchNameMatch, nullptr,
                                FIND_FIRST_EX_LARGE_FETCH);
    if (find.h == INVALID_HANDLE_VALUE) return lastWin32Error();
    do {
        const std::wstring_view name(entry.cFileName);
        if (name == L"." || name == L"..") continue;
        const std::string utf8 = toUtf8(std::filesystem::path(name));
        if (!visit(utf8, entry.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) return {};
    } while (::FindNextFileW(find.h, &entry));
    const DWORD code = ::GetLastError();
    return code == ERROR_NO_MORE_FILES ? SystemError{} : win32Error(code);
}

SystemError moveNoReplace(const std::filesystem::path& from, const std::filesystem::path& to)
{
    if (::MoveFileExW(from.c_str(), to.c_str(), MOVEFILE_WRITE_THROUGH)) return {};
    return lastWin32Error();
}

SystemError moveReplacing(const std::filesystem::path& from, const std::filesystem::path& to)
{
    if (::MoveFileExW(from.c_str(), to.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) return {};
    return lastWin32Error();
}

SystemError syncFolder(const std::filesystem::path&) { return {}; }

SystemError createFolder(const std::filesystem::path& folder)
{
    if (::CreateDirectoryW(folder.c_str(), nullptr)) return {};
    return lastWin32Error();
}

void removeIfAbandoned(const std::filesystem::path& path)
{
    // No sharing at all: fails while a writer holds the temporary open.
    const HANDLE h = ::CreateFileW(path.c_str(), GENERIC_READ, 0, nullptr, OPEN_EXISTING,
                                   FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
    if (h == INVALID_HANDLE_VALUE) return;
    BY_HANDLE_FILE_INFORMATION info{};
    const bool known =
        ::GetFileInformationByHandle(h, &info) && !(info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT);
    ::CloseHandle(h);
    if (!known) return;
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
}

std::uint64_t processId() { return ::GetCurrentProcessId(); }

} // namespace lv::io
