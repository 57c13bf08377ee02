// INI lines and sections of BrainVision files, and the comma escape of their fields.
#include "formats/brainvision/BvIni.h"

#include "core/AsciiLower.h"
#include "core/TextEncoding.h"

namespace lv::formats::brainvision {

namespace {

std::string_view trimmedView(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

bool sameName(std::string_view a, std::string_view b)
{
    return core::asciiLower(std::string(a)) == core::asciiLower(std::string(b));
}

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = text.find_first_of("\r\n", at);
        if (end == std::string_view::npos) {
            lines.push_back(text.substr(at));
            break;
        }
        lines.push_back(text.substr(at, end - at));
        at = end + (text[end] == '\r' && end + 1 < text.size() && text[end + 1] == '\n' ? 2 : 1);
    }
    return lines;
}

// Whether a line "Codepage=UTF-8" comes before the first [section] after [Common Infos] (the only place it means
// anything); the raw bytes are ASCII there whatever the code page.
bool declaresUtf8(const std::vector<std::string_view>& lines)
{
    for (const std::string_view raw : lines) {
        const std::string_view line = trimmedView(raw);
        const auto eq = line.find('=');
        if (eq == std::string_view::npos) continue;
        if (sameName(trimmedView(line.substr(0, eq)), "Codepage"))
            return sameName(trimmedView(line.substr(eq + 1)), "UTF-8");
    }
    return false;
}

} // namespace

const BvIniSection* BvIni::section(std::string_view name) const
{
    for (const BvIniSection& s : sections)
        if (sameName(s.name, name)) return &s;
    return nullptr;
}

const BvIniEntry* BvIni::entry(std::string_view sectionName, std::string_view key) const
{
    const BvIniSection* s = section(sectionName);
    if (!s) return nullptr;
    for (const BvIniEntry& e : s->entries)
        if (sameName(e.key, key)) return &e;
    return nullptr;
}

BvIni parseIni(std::span<const std::uint8_t> bytes)
{
    std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3); // a UTF-8 byte order mark
    const std::vector<std::string_view> lines = splitLines(text);
    BvIni ini;
    ini.utf8 = declaresUtf8(lines);
    const auto decode = [&](std::string_view s) { return ini.utf8 ? core::utf8OrLatin1(s) : core::latin1ToUtf8(s); };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = trimmedView(lines[i]);
        if (i == 0) {
            ini.identification = decode(line);
            continue;
        }
        if (line.size() >= 2 && line.front() == '[' && line.back() == ']') {
            ini.sections.push_back({std::string(trimmedView(line.substr(1, line.size() - 2))), {}, {}});
            continue;
        }
        if (ini.sections.empty()) continue;
        BvIniSection& s = ini.sections.back();
        s.lines.push_back(decode(lines[i]));
        if (line.empty() || line.front() == ';') continue;
        const auto eq = line.find('=');
        if (eq == std::string_view::npos) continue;
        s.entries.push_back({decode(trimmedView(line.substr(0, eq))), decode(trimmedView(line.substr(eq + 1))),
                             static_cast<int>(i + 1)});
    }
    return ini;
}

std::string unescapeComma(std::string_view field)
{
    std::string out;
    out.reserve(field.size());
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 1 < field.size() && field[i + 1] == '1') {
            out += ',';
            ++i;
        } else {
            out += field[i];
        }
    }
    return out;
}

std::string escapeComma(std::string_view text)
{
    std::string out;
    for (const char c : text) {
        if (c == ',')
            out += "\\1";
        else
            out += c;
    }
    return out;
}

std::vector<std::string> splitFields(std::string_view value)
{
    std::vector<std::string> fields;
    std::size_t at = 0;
    while (true) {
        const std::size_t comma = value.find(',', at);
        fields.emplace_back(value.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at));
        if (comma == std::string_view::npos) break;
        at = comma + 1;
    }
    return fields;
}

core::Error lineError(core::ErrorCode code, const std::string& path, int line, const std::string& message)
{
    return core::makeError(code, "line " + std::to_string(line) + ": " + message, path);
}

} // namespace lv::formats::brainvision
