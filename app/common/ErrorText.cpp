// Error codes mapped to a short lead, a hint of what to do where one helps, and an exit status.
#include "common/ErrorText.h"

namespace lv::app {

namespace {

std::string hint(core::ErrorCode code, Audience audience)
{
    switch (code) {
    case core::ErrorCode::PasswordRequired:
        return audience == Audience::Cli ? " (give it with --password)" : "";
    case core::ErrorCode::WrongPassword:
        return " (check the password)";
    case core::ErrorCode::CrcMismatch:
    case core::ErrorCode::Corrupt:
    case core::ErrorCode::Truncated:
        return " (the file is damaged)";
    case core::ErrorCode::DiskFull:
        return " (free some space, or write elsewhere)";
    default:
        return "";
    }
}

} // namespace

std::string errorText(const core::Error& error, Audience audience)
{
    std::string text;
    if (!error.path.empty()) text = error.path + ": ";
    text += error.message;
    if (error.offset >= 0) text += " (at byte " + std::to_string(error.offset) + ")";
    return text + hint(error.code, audience);
}

int exitStatus(core::ErrorCode code)
{
    switch (code) {
    case core::ErrorCode::Cancelled:
        return kExitCancelled;
    case core::ErrorCode::InvalidArgument:
        return kExitUsage;
    case core::ErrorCode::DiskFull:
    case core::ErrorCode::WriteFailed:
        return kExitOutputFailed;
    default:
        return kExitBadInput;
    }
}

std::string jobFailureText(const core::Error& error, Audience audience)
{
    if (error.code == core::ErrorCode::Cancelled) return "cancelled; nothing was written";
    return errorText(error, audience);
}

} // namespace lv::app
