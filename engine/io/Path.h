// Paths at the operating system's door: the engine's UTF-8 strings to std::filesystem::path and back, so that
// non-ASCII names survive on Windows (wide) as on POSIX (bytes).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace lv::io {

// The path named by UTF-8 text.
inline std::filesystem::path toPath(std::string_view utf8)
{
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
}

// The UTF-8 text of a path.
inline std::string toUtf8(const std::filesystem::path& path)
{
    const std::u8string s = path.u8string();
    return std::string(s.begin(), s.end());
}

} // namespace lv::io
