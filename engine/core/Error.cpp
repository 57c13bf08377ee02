// Names and one-line descriptions of core::Error values.
#include "core/Error.h"

namespace lv::core {

const char* errorCodeName(ErrorCode code)
{
    switch (code) {
    case ErrorCode::Io:
        return "io";
    case ErrorCode::NotFound:
        return "not-found";
    case ErrorCode::Truncated:
        return "truncated";
    case ErrorCode::Corrupt:
        return "corrupt";
    case ErrorCode::CrcMismatch:
        return "crc-mismatch";
    case ErrorCode::Unsupported:
        return "unsupported";
    case ErrorCode::PasswordRequired:
        return "password-required";
    case ErrorCode::WrongPassword:
        return "wrong-password";
    case ErrorCode::InvalidArgument:
        return "invalid-argument";
    case ErrorCode::Cancelled:
        return "cancelled";
    case ErrorCode::DiskFull:
        return "disk-full";
    case ErrorCode::WriteFailed:
        return "write-failed";
    }
    return "unknown";
}

std::string Error::describe() const
{
    std::string text = path.empty() ? message : path + ": " + message;
    if (offset >= 0) text += " (at byte " + std::to_string(offset) + ")";
    return text;
}

} // namespace lv::core
