// Expected failures as values: an error code plus the file, byte offset and a message.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace lv::core {

enum class ErrorCode {
    Io,          // the operating system refused a read or write
    NotFound,    // a path or channel does not exist
    Truncated,   // a file ends before a structure it must hold
    Corrupt,     // a structure holds impossible values
    CrcMismatch, // a stored CRC does not match the bytes
    Unsupported, // a valid but unsupported variant
    PasswordRequired,
    WrongPassword,
    InvalidArgument, // the caller asked for something impossible
    Cancelled,
    DiskFull,    // no space left, or the file size limit reached
    WriteFailed, // the output could not be created, written, synced or moved into place
};

const char* errorCodeName(ErrorCode code);

struct Error {
    ErrorCode code = ErrorCode::Io;
    std::string message;      // what is wrong, in words, without the path
    std::string path;         // the file concerned, or empty
    std::int64_t offset = -1; // byte offset in that file, or -1

    // "path: message (at byte N)" as a single line.
    std::string describe() const;
};

inline Error makeError(ErrorCode code, std::string message, std::string path = {}, std::int64_t offset = -1)
{
    return Error{code, std::move(message), std::move(path), offset};
}

// A value or an Error. Minimal std::expected stand-in (C++20).
template <typename T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_v(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : m_v(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() & { return std::get<0>(m_v); }
    const T& value() const& { return std::get<0>(m_v); }
    T&& value() && { return std::get<0>(std::move(m_v)); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const Error& error() const { return std::get<1>(m_v); }

private:
    std::variant<T, Error> m_v;
};

// Success or an Error.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error) : m_error(std::move(error)), m_failed(true) {}
    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return m_error; }

private:
    Error m_error;
    bool m_failed = false;
};

} // namespace lv::core

// Return early from the enclosing function with the error of a failed Status or Result.
#define LV_TRY(expr)                                                                                                   \
    do {                                                                                                               \
        auto&& lvTryValue_ = (expr);                                                                                   \
        if (!lvTryValue_.ok()) return lvTryValue_.error();                                                             \
    } while (false)
