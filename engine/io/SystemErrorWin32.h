// GetLastError() codes to SystemError, for the Win32 half of the platform layer.
#pragma once

#include "io/SystemError.h"

#include <string>
#include <windows.h>

namespace lv::io {

inline std::string win32Message(DWORD code)
{
    wchar_t* text = nullptr;
    const DWORD n =
        ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                         nullptr, code, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
    std::string utf8;
    if (n > 0) {
        const int bytes = ::WideCharToMultiByte(CP_UTF8, 0, text, static_cast<int>(n), nullptr, 0, nullptr, nullptr);
        utf8.resize(static_cast<std::size_t>(bytes));
        ::WideCharToMultiByte(CP_UTF8, 0, text, static_cast<int>(n), utf8.data(), bytes, nullptr, nullptr);
        while (!utf8.empty() && (utf8.back() == '\n' || utf8.back() == '\r' || utf8.back() == '.')) utf8.pop_back();
    }
    if (text) ::LocalFree(text);
    return utf8.empty() ? "system error " + std::to_string(code) : utf8;
}

inline SystemError win32Error(DWORD code)
{
    using K = SystemError::Kind;
    K kind = K::Other;
    switch (code) {
    case ERROR_SUCCESS:
        return {};
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
        kind = K::NotFound;
        break;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
    case ERROR_DIR_NOT_EMPTY:
        kind = K::Exists;
        break;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
#ifdef ERROR_DISK_QUOTA_EXCEEDED // newer SDKs only
    case ERROR_DISK_QUOTA_EXCEEDED:
#endif
    case ERROR_FILE_TOO_LARGE:
        kind = K::NoSpace;
        break;
    case ERROR_NOT_SUPPORTED:
    case ERROR_INVALID_FUNCTION:
    case ERROR_NOT_SAME_DEVICE:
        kind = K::Unsupported;
        break;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_WRITE_PROTECT:
        kind = K::NotPermitted;
        break;
    case ERROR_CANT_RESOLVE_FILENAME:
        kind = K::LinkLoop;
        break;
    default:
        break;
    }
    return {kind, win32Message(code)};
}

inline SystemError lastWin32Error() { return win32Error(::GetLastError()); }

} // namespace lv::io
