// Text from files in UTF-8 or Latin-1 (ISO 8859-1, as Windows' "ANSI" code page holds it for Western texts), as
// UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace lv::core {

// Whether `text` is valid UTF-8 (lead and continuation bytes; overlong forms are not looked for).
bool isUtf8(std::string_view text);

// Each byte as the Latin-1 character it stands for, in UTF-8.
std::string latin1ToUtf8(std::string_view text);

// `text` as UTF-8: kept when it already is valid UTF-8, else read as Latin-1.
std::string utf8OrLatin1(std::string_view text, bool* wasValid = nullptr);

} // namespace lv::core
