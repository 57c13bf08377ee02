// BrainVision's INI text (.vhdr, .vmrk): the identification line, [sections] of key=value lines, ';' comments; the
// bytes decoded as the file's own "Codepage" says (UTF-8, else Latin-1).
#pragma once

#include "core/Error.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lv::formats::brainvision {

struct BvIniEntry {
    std::string key;   // as written
    std::string value; // UTF-8, trailing blanks removed
    int line = 0;      // 1-based line number in the file
};

struct BvIniSection {
    std::string name; // without the brackets
    std::vector<BvIniEntry> entries;
    std::vector<std::string> lines; // every line of the section as written (the free text of [Comment])
};

struct BvIni {
    std::string identification; // the first line
    bool utf8 = false;          // Codepage=UTF-8 (else Latin-1)
    std::vector<BvIniSection> sections;

    // The section of this name (any case), or nullptr.
    const BvIniSection* section(std::string_view name) const;
    // The value of `key` (any case) in `section`, or nullptr.
    const BvIniEntry* entry(std::string_view section, std::string_view key) const;
};

// Splits `bytes` into lines (CR, LF or CRLF) and sections. Never fails: lines outside any section (but the first)
// and lines without '=' in a section are kept only as text.
BvIni parseIni(std::span<const std::uint8_t> bytes);

// A field of a comma-separated value with BrainVision's escape: "\1" stands for a comma.
std::string unescapeComma(std::string_view field);
// The inverse: each comma as "\1".
std::string escapeComma(std::string_view text);
// `value` split at its commas (empty fields kept).
std::vector<std::string> splitFields(std::string_view value);

// "Unsupported: ..." etc. errors name the file and the line: "line 12: ...".
core::Error lineError(core::ErrorCode code, const std::string& path, int line, const std::string& message);

} // namespace lv::formats::brainvision
