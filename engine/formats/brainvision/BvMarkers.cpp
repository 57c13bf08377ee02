// The [Marker Infos] lines: Mk<n>=<type>,<description>,<position>,<size>,<channel>[,<date>].
#include "formats/brainvision/BvMarkers.h"

#include "core/AsciiLower.h"
#include "core/TimeFormat.h"
#include "formats/brainvision/BvIni.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace lv::formats::brainvision {

namespace {

std::optional<long long> integerOf(std::string_view text)
{
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    long long v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
}

void warn(std::vector<std::string>& warnings, int line, const std::string& what)
{
    warnings.push_back("marker file line " + std::to_string(line) + ": " + what);
}

std::optional<BvMarker> markerOf(const BvIniEntry& e, std::vector<std::string>& warnings)
{
    const std::vector<std::string> f = splitFields(e.value);
    BvMarker m;
    m.line = e.line;
    m.type = unescapeComma(f[0]);
    if (f.size() > 1) m.description = unescapeComma(f[1]);
    const auto position = f.size() > 2 ? integerOf(f[2]) : std::nullopt;
    if (!position || *position < 1) {
        warn(warnings, e.line, e.key + " has no position from 1 on: left out");
        return std::nullopt;
    }
    m.position = *position;
    if (f.size() > 3 && !f[3].empty()) {
        const auto size = integerOf(f[3]);
        if (!size || *size < 0) {
            warn(warnings, e.line, e.key + " has a size \"" + f[3] + "\" that is not a count: read as 1");
        } else {
            m.size = *size;
        }
    }
    if (f.size() > 4 && !f[4].empty()) {
        const auto channel = integerOf(f[4]);
        if (!channel || *channel < 0 || *channel > 65'536)
            warn(warnings, e.line, e.key + " names channel \"" + f[4] + "\": read as all channels");
        else
            m.channel = static_cast<int>(*channel);
    }
    if (f.size() > 5 && !f[5].empty()) {
        m.date = parseMarkerDate(f[5]);
        if (!m.date)
            warn(warnings, e.line, e.key + " has a date \"" + f[5] + "\" that is not YYYYMMDDhhmmssuuuuuu: ignored");
    }
    return m;
}

} // namespace

bool BvMarker::newSegment() const { return core::asciiLower(type) == "new segment"; }

std::optional<core::Uutc> parseMarkerDate(std::string_view text)
{
    if (text.size() != 20 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    const auto num = [&](std::size_t at, std::size_t n) {
        long long v = 0;
        for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (text[i] - '0');
        return v;
    };
    const long long year = num(0, 4), month = num(4, 2), day = num(6, 2), hour = num(8, 2), minute = num(10, 2),
                    second = num(12, 2), micros = num(14, 6);
    if (year == 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return std::nullopt; // 00000000000000000000: no date
    const std::int64_t days = core::daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    return ((days * 24 + hour) * 60 + minute) * 60'000'000LL + second * 1'000'000LL + micros;
}

std::string formatMarkerDate(core::Uutc t)
{
    const std::int64_t seconds = t >= 0 ? t / 1'000'000 : (t - 999'999) / 1'000'000;
    const core::CivilTime c = core::civilTime(seconds);
    char text[32];
    std::snprintf(text, sizeof text, "%04lld%02u%02u%02u%02u%02u%06lld", static_cast<long long>(c.year), c.month, c.day,
                  c.hour, c.minute, c.second, static_cast<long long>(t - seconds * 1'000'000));
    return text;
}

core::Result<std::vector<BvMarker>> parseMarkers(std::span<const std::uint8_t> bytes, const std::string& path,
                                                 std::vector<std::string>& warnings)
{
    const BvIni ini = parseIni(bytes);
    const std::string id = core::asciiLower(ini.identification);
    if (!(id.starts_with("brain vision") || id.starts_with("brainvision")) ||
        id.find("marker file") == std::string::npos)
        return lineError(core::ErrorCode::Corrupt, path, 1,
                         "not a BrainVision marker file: the first line is \"" + ini.identification.substr(0, 80) +
                             "\"");
    if (!bytes.empty() && bytes.back() != '\n' && bytes.back() != '\r')
        warnings.push_back(path + " ends inside a line: the marker file may be cut short");
    std::vector<BvMarker> markers;
    if (const BvIniSection* s = ini.section("Marker Infos"))
        for (const BvIniEntry& e : s->entries) {
            if (core::asciiLower(e.key).rfind("mk", 0) != 0) continue;
            if (auto m = markerOf(e, warnings)) markers.push_back(std::move(*m));
        }
    std::stable_sort(markers.begin(), markers.end(),
                     [](const BvMarker& a, const BvMarker& b) { return a.position < b.position; });
    return markers;
}

} // namespace lv::formats::brainvision
