// The header's sections: [Common Infos], [Binary Infos], [Channel Infos], [Coordinates], [Comment].
#include "formats/brainvision/BvHeader.h"

#include "core/AsciiLower.h"
#include "core/TimeFormat.h"

#include <charconv>
#include <cmath>

namespace lv::formats::brainvision {

using core::ErrorCode;

namespace {

constexpr std::size_t kMaxChannels = 65'536;

std::optional<double> parseNumber(std::string_view text)
{
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<long long> parseInteger(std::string_view text)
{
    long long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

// "Brain Vision Data Exchange Header File Version 1.0", "BrainVision Data Exchange Header File Version 2.0", or
// the V-Amp's "Brain Vision V-Amp Data Header File Version 1.0".
core::Result<int> versionOf(const std::string& identification, const std::string& path)
{
    const std::string id = core::asciiLower(identification);
    const bool header = (id.starts_with("brain vision") || id.starts_with("brainvision")) &&
                        id.find("header file") != std::string::npos;
    if (!header)
        return lineError(ErrorCode::Corrupt, path, 1,
                         "not a BrainVision header: the first line is \"" + identification.substr(0, 80) +
                             "\", not \"BrainVision Data Exchange Header File Version 1.0\"");
    return id.find("version 2.") != std::string::npos ? 2 : 1;
}

core::Result<const BvIniEntry*> required(const BvIni& ini, std::string_view section, std::string_view key,
                                         const std::string& path)
{
    const BvIniEntry* e = ini.entry(section, key);
    if (!e || e->value.empty())
        return core::makeError(
            ErrorCode::Corrupt,
            "no " + std::string(key) + " in [" + std::string(section) + "]: the header is incomplete", path);
    return e;
}

core::Status readCommon(const BvIni& ini, const std::string& path, BvHeader& h)
{
    auto data = required(ini, "Common Infos", "DataFile", path);
    if (!data) return data.error();
    h.dataFile = (*data)->value;
    if (const BvIniEntry* m = ini.entry("Common Infos", "MarkerFile")) h.markerFile = m->value;
    if (const BvIniEntry* f = ini.entry("Common Infos", "DataFormat"); f && core::asciiLower(f->value) != "binary")
        return lineError(ErrorCode::Unsupported, path, f->line,
                         "DataFormat=" + f->value + " is not read (only BINARY data; ASCII is not supported)");
    if (const BvIniEntry* t = ini.entry("Common Infos", "DataType"); t && core::asciiLower(t->value) != "timedomain")
        return lineError(ErrorCode::Unsupported, path, t->line,
                         "DataType=" + t->value + " is not read (only TIMEDOMAIN data)");
    if (const BvIniEntry* o = ini.entry("Common Infos", "DataOrientation")) {
        const std::string v = core::asciiLower(o->value);
        if (v == "vectorized")
            h.orientation = Orientation::Vectorized;
        else if (v != "multiplexed")
            return lineError(ErrorCode::Corrupt, path, o->line,
                             "DataOrientation=" + o->value + " is neither MULTIPLEXED nor VECTORIZED");
    }
    auto interval = required(ini, "Common Infos", "SamplingInterval", path);
    if (!interval) return interval.error();
    const auto us = parseNumber((*interval)->value);
    if (!us || *us <= 0)
        return lineError(ErrorCode::Corrupt, path, (*interval)->line,
                         "SamplingInterval=" + (*interval)->value + " is not a positive number of microseconds");
    h.samplingIntervalUs = *us;
    if (const BvIniEntry* p = ini.entry("Common Infos", "DataPoints")) {
        const auto n = parseInteger(p->value);
        if (!n || *n < 0)
            return lineError(ErrorCode::Corrupt, path, p->line, "DataPoints=" + p->value + " is not a count");
        h.dataPoints = *n;
    }
    if (const std::string problem = core::samplingRateProblem(h.fs(), "sampling rate"); !problem.empty())
        return lineError(ErrorCode::Corrupt, path, (*interval)->line,
                         "SamplingInterval=" + (*interval)->value + ": " + problem);
    return {};
}

core::Status readBinary(const BvIni& ini, const std::string& path, BvHeader& h)
{
    const BvIniEntry* f = ini.entry("Binary Infos", "BinaryFormat");
    const std::string v = f ? core::asciiLower(f->value) : "int_16";
    if (v == "int_16")
        h.format = BinaryFormat::Int16;
    else if (v == "int_32")
        h.format = BinaryFormat::Int32;
    else if (v == "ieee_float_32")
        h.format = BinaryFormat::Float32;
    else
        return lineError(ErrorCode::Unsupported, path, f->line,
                         "BinaryFormat=" + f->value + " is not read (INT_16, INT_32 or IEEE_FLOAT_32)");
    return {};
}

core::Result<BvChannel> channelOf(const BvIniEntry& e, const std::string& path, std::vector<std::string>& warnings)
{
    const std::vector<std::string> f = splitFields(e.value);
    BvChannel c;
    c.name = unescapeComma(f[0]);
    if (f.size() > 1) c.reference = unescapeComma(f[1]);
    if (f.size() > 2 && !f[2].empty()) {
        const auto r = parseNumber(f[2]);
        if (!r || *r == 0)
            return lineError(ErrorCode::Corrupt, path, e.line,
                             e.key + ": resolution \"" + f[2] + "\" is not a non-zero number");
        c.resolution = *r;
    }
    c.unit = f.size() > 3 && !f[3].empty() ? unescapeComma(f[3]) : "\xC2\xB5V";
    if (c.name.empty()) {
        c.name = e.key;
        warnings.push_back("line " + std::to_string(e.line) + ": " + e.key + " has no name: named \"" + e.key + "\"");
    }
    return c;
}

// Ch1..ChN, each once, N = NumberOfChannels.
core::Status readChannels(const BvIni& ini, const std::string& path, BvHeader& h, std::vector<std::string>& warnings)
{
    auto number = required(ini, "Common Infos", "NumberOfChannels", path);
    if (!number) return number.error();
    const auto n = parseInteger((*number)->value);
    if (!n || *n < 1 || static_cast<unsigned long long>(*n) > kMaxChannels)
        return lineError(ErrorCode::Corrupt, path, (*number)->line,
                         "NumberOfChannels=" + (*number)->value + " is not a count from 1 to " +
                             std::to_string(kMaxChannels));
    h.channels.resize(static_cast<std::size_t>(*n));
    std::vector<bool> seen(h.channels.size());
    if (const BvIniSection* s = ini.section("Channel Infos"))
        for (const BvIniEntry& e : s->entries) {
            const auto k = e.key.size() > 2 && core::asciiLower(e.key.substr(0, 2)) == "ch"
                               ? parseInteger(std::string_view(e.key).substr(2))
                               : std::nullopt;
            if (!k || *k < 1 || *k > *n) {
                warnings.push_back("line " + std::to_string(e.line) + ": " + e.key +
                                   " is not a channel from Ch1 to Ch" + std::to_string(*n) + ": ignored");
                continue;
            }
            auto c = channelOf(e, path, warnings);
            if (!c) return c.error();
            const auto i = static_cast<std::size_t>(*k - 1);
            if (seen[i]) return lineError(ErrorCode::Corrupt, path, e.line, e.key + " is given twice");
            seen[i] = true;
            h.channels[i] = std::move(*c);
        }
    for (std::size_t i = 0; i < seen.size(); ++i)
        if (!seen[i])
            return core::makeError(ErrorCode::Corrupt,
                                   "[Channel Infos] has no Ch" + std::to_string(i + 1) + " of the " +
                                       std::to_string(*n) + " channels NumberOfChannels announces",
                                   path);
    if (const BvIniSection* s = ini.section("Coordinates"))
        for (const BvIniEntry& e : s->entries) {
            const auto k = e.key.size() > 2 ? parseInteger(std::string_view(e.key).substr(2)) : std::nullopt;
            if (k && *k >= 1 && *k <= *n) h.channels[static_cast<std::size_t>(*k - 1)].coordinates = e.value;
        }
    return {};
}

std::string commentOf(const BvIni& ini)
{
    const BvIniSection* s = ini.section("Comment");
    if (!s) return {};
    std::string text;
    for (const std::string& line : s->lines) text += line + "\n";
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

} // namespace

core::Result<BvHeader> parseHeader(std::span<const std::uint8_t> bytes, const std::string& path,
                                   std::vector<std::string>& warnings)
{
    const BvIni ini = parseIni(bytes);
    BvHeader h;
    auto version = versionOf(ini.identification, path);
    if (!version) return version.error();
    h.version = *version;
    LV_TRY(readCommon(ini, path, h));
    LV_TRY(readBinary(ini, path, h));
    LV_TRY(readChannels(ini, path, h, warnings));
    h.comment = commentOf(ini);
    return h;
}

} // namespace lv::formats::brainvision
