// ASCII lower case for names and extensions compared without case ("EDF" and ".Bdf"); other bytes (UTF-8) kept.
#pragma once

#include <string>
#include <string_view>

namespace lv::core {

inline std::string asciiLower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

} // namespace lv::core
