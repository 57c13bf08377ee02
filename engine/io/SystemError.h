// What the operating system said when a call of the platform layer failed: a portable kind and its own words.
#pragma once

#include "core/Error.h"

#include <string>
#include <system_error>

namespace lv::io {

struct SystemError {
    enum class Kind {
        None,         // no failure
        NotFound,     // no such file or folder
        Exists,       // something is there already
        NoSpace,      // the disk is full, a quota or a file size limit is reached
        Unsupported,  // the file system cannot do this (a no-replace rename, direct writes, hard links)
        NotPermitted, // access denied, or an operation the file system forbids
        LinkLoop,     // too many levels of symbolic links
        Other,
    };
    Kind kind = Kind::None;
    std::string text; // the system's message (strerror, FormatMessage)

    bool ok() const { return kind == Kind::None; }
};

// The error code of a failed write, create, sync or move: DiskFull for NoSpace, else WriteFailed.
inline core::ErrorCode writeFailureCode(const SystemError& e)
{
    return e.kind == SystemError::Kind::NoSpace ? core::ErrorCode::DiskFull : core::ErrorCode::WriteFailed;
}

// The same for a failure std::filesystem reported.
inline core::ErrorCode writeFailureCode(const std::error_code& ec)
{
    return ec == std::errc::no_space_on_device || ec == std::errc::file_too_large ? core::ErrorCode::DiskFull
                                                                                  : core::ErrorCode::WriteFailed;
}

} // namespace lv::io
