// EDF+ identification subfields: split, "X" and '_' undone, dates as ISO 8601; and the reverse for the writer.
#include "formats/edf/EdfIdentity.h"

#include "core/TextEncoding.h"

#include "core/TimeFormat.h"
#include "formats/edf/EdfHeader.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <vector>

namespace lv::formats::edf {

namespace {

constexpr std::array<const char*, 12> kMonths{"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                              "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
constexpr std::size_t kFieldBytes = 80;

std::vector<std::string> subfields(std::string_view field)
{
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < field.size()) {
        const std::size_t space = field.find(' ', at);
        const std::size_t end = space == std::string_view::npos ? field.size() : space;
        if (end > at) out.emplace_back(field.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

// "X" is unknown; '_' stands for a space.
std::string value(const std::vector<std::string>& parts, std::size_t i)
{
    if (i >= parts.size() || parts[i] == "X") return {};
    std::string v = parts[i];
    for (char& c : v)
        if (c == '_') c = ' ';
    return core::utf8OrLatin1(v);
}

// "02-MAY-1951" to "1951-05-02"; empty when it is not such a date.
std::string isoDate(const std::string& d)
{
    if (d.size() != 11 || d[2] != '-' || d[6] != '-') return {};
    int day = 0, year = 0;
    if (std::sscanf(d.c_str(), "%2d", &day) != 1 || std::sscanf(d.c_str() + 7, "%4d", &year) != 1) return {};
    for (std::size_t m = 0; m < kMonths.size(); ++m)
        if (d.compare(3, 3, kMonths[m]) == 0) {
            char text[16];
            std::snprintf(text, sizeof text, "%04d-%02zu-%02d", year, m + 1, day);
            return text;
        }
    return {};
}

// "1951-05-02" to "02-MAY-1951"; "X" when it is not such a date.
std::string edfDate(const std::string& iso)
{
    int year = 0, month = 0, day = 0;
    if (iso.size() != 10 || std::sscanf(iso.c_str(), "%4d-%2d-%2d", &year, &month, &day) != 3 || month < 1 ||
        month > 12 || day < 1 || day > 31)
        return "X";
    char text[16];
    std::snprintf(text, sizeof text, "%02d-%s-%04d", day, kMonths[static_cast<std::size_t>(month - 1)], year);
    return text;
}

// One subfield: printable US-ASCII, spaces as '_', other bytes as '_', "X" when empty.
std::string subfield(const std::string& text, std::size_t limit = kFieldBytes)
{
    std::string out;
    for (char c : text) {
        if (out.size() == limit) break;
        const auto u = static_cast<unsigned char>(c);
        out += u > 32 && u < 127 ? c : '_';
    }
    return out.empty() ? "X" : out;
}

std::string joined(const std::vector<std::string>& parts)
{
    std::string out;
    for (const std::string& p : parts) {
        if (!out.empty() && out.size() + 1 + p.size() > kFieldBytes) break;
        out += (out.empty() ? "" : " ") + p;
    }
    return out.substr(0, kFieldBytes);
}

} // namespace

core::SubjectInfo readPatientField(std::string_view field, bool edfPlus)
{
    const std::vector<std::string> parts = subfields(field);
    const bool structured = parts.size() >= 4 && (parts[1] == "F" || parts[1] == "M" || parts[1] == "X") &&
                            (parts[2] == "X" || !isoDate(parts[2]).empty());
    if (!edfPlus && !structured) return {core::utf8OrLatin1(trimmed(field)), {}, {}, {}};
    core::SubjectInfo s{value(parts, 0), value(parts, 3), value(parts, 1), isoDate(value(parts, 2))};
    if (s.sex != "F" && s.sex != "M") s.sex.clear();
    return s;
}

core::SiteInfo readRecordingField(std::string_view field, bool edfPlus)
{
    const std::vector<std::string> parts = subfields(field);
    if (!edfPlus || parts.empty() || parts[0] != "Startdate") return {core::utf8OrLatin1(trimmed(field)), {}, {}, {}};
    return {value(parts, 2), value(parts, 3), value(parts, 4), {}};
}

std::string patientField(const core::SubjectInfo& subject)
{
    const std::string code = subfield(subject.id, 40);
    const std::string sex = subject.sex == "F" || subject.sex == "M" ? subject.sex : "X";
    const std::string birth = edfDate(subject.birthdate);
    const std::size_t room = kFieldBytes - code.size() - sex.size() - birth.size() - 3;
    return joined({code, sex, birth, subfield(subject.name, room)});
}

std::string recordingField(core::Uutc start, const core::SiteInfo& site, bool dateKnown)
{
    const auto s = static_cast<std::int64_t>(std::floor(static_cast<double>(start) / 1e6));
    const core::CivilTime t = core::civilTime(s);
    char date[40];
    std::snprintf(date, sizeof date, "%02u-%s-%04lld", t.day, kMonths[t.month - 1], static_cast<long long>(t.year));
    if (!dateKnown) std::snprintf(date, sizeof date, "X");
    return joined(
        {"Startdate", date, subfield(site.adminCode, 18), subfield(site.technician, 18), subfield(site.equipment, 18)});
}

} // namespace lv::formats::edf
