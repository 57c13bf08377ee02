// EDF/BDF header fields read as text, numbers trimmed and checked, sloppiness turned into warnings.
#include "formats/edf/EdfHeader.h"

#include "core/TextEncoding.h"
#include "core/TimeFormat.h"

#include "core/TimeFormat.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>

namespace lv::formats::edf {

using core::ErrorCode;
using core::makeError;

namespace {

// Field widths of the per-signal part, in order.
constexpr std::size_t kLabel = 16, kTransducer = 80, kUnit = 8, kNumber = 8, kPrefilter = 80;

std::string_view field(std::span<const std::uint8_t> b, std::size_t at, std::size_t size)
{
    return {reinterpret_cast<const char*>(b.data() + at), size};
}

// Collects sloppiness once per kind, so a header of 200 right-aligned fields gives one warning, not 200.
struct Notes {
    std::set<std::string> padded;   // number fields with leading spaces
    std::set<std::string> nonAscii; // text fields with bytes outside 32..126
    std::vector<std::string>& warnings;
};

bool isPrintableAscii(std::string_view s)
{
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= 32 && c <= 126; });
}

std::string text(std::string_view raw, const char* name, Notes& notes)
{
    std::string_view s = raw.substr(0, std::min(raw.find('\0'), raw.size()));
    if (!isPrintableAscii(s)) notes.nonAscii.insert(name);
    return core::utf8OrLatin1(trimmed(s));
}

std::optional<double> number(std::string_view raw, const char* name, Notes& notes)
{
    const std::string s = trimmed(raw.substr(0, std::min(raw.find('\0'), raw.size())));
    if (!raw.empty() && raw.front() == ' ' && !s.empty()) notes.padded.insert(name);
    std::string_view v = s;
    if (!v.empty() && v.front() == '+') v.remove_prefix(1);
    double value = 0.0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !std::isfinite(value)) return std::nullopt;
    return value;
}

core::Error badField(const std::string& path, std::size_t at, const std::string& what, std::string_view raw)
{
    return makeError(ErrorCode::Corrupt, what + " is not a number: \"" + std::string(raw) + "\"", path,
                     static_cast<std::int64_t>(at));
}

// "dd.mm.yy" + "hh.mm.ss"; the century from EDF+'s "Startdate dd-MMM-yyyy" when it is there, else 1985-2084.
core::Result<core::Uutc> startTime(std::span<const std::uint8_t> b, const std::string& recording,
                                   const std::string& path, std::vector<std::string>& warnings)
{
    const std::string_view date = field(b, 168, 8), time = field(b, 176, 8);
    int v[6] = {};
    for (int i = 0; i < 6; ++i) {
        const std::string_view part = (i < 3 ? date : time).substr(static_cast<std::size_t>(i % 3) * 3, 2);
        const auto [end, ec] = std::from_chars(part.data(), part.data() + 2, v[i]);
        if (ec != std::errc() || end != part.data() + 2)
            return makeError(ErrorCode::Corrupt, "the start date or time is not dd.mm.yy hh.mm.ss", path,
                             i < 3 ? 168 : 176);
    }
    if (date[2] != '.' || date[5] != '.' || time[2] != '.' || time[5] != '.')
        warnings.push_back("start date or time uses separators other than '.'");
    int year = v[2] < 85 ? 2000 + v[2] : 1900 + v[2];
    if (recording.rfind("Startdate ", 0) == 0 && recording.size() >= 21 && recording[12] == '-') {
        int full = 0;
        const auto [end, ec] = std::from_chars(recording.data() + 17, recording.data() + 21, full);
        if (ec == std::errc() && end == recording.data() + 21 && full % 100 == v[2]) year = full;
    }
    if (v[1] < 1 || v[1] > 12 || v[0] < 1 || v[0] > 31 || v[3] > 23 || v[4] > 59 || v[5] > 60)
        return makeError(ErrorCode::Corrupt, "the start date or time is out of range", path, 168);
    const std::int64_t seconds =
        core::daysFromCivil(year, static_cast<unsigned>(v[1]), static_cast<unsigned>(v[0])) * 86400 +
        std::int64_t{v[3]} * 3600 + std::int64_t{v[4]} * 60 + v[5];
    return seconds * 1'000'000;
}

Variant variantOf(std::string_view reserved, bool bdf)
{
    const std::string_view plus = bdf ? "BDF+" : "EDF+";
    if (reserved.substr(0, 5) == std::string(plus) + "C") return Variant::EdfPlusC;
    if (reserved.substr(0, 5) == std::string(plus) + "D") return Variant::EdfPlusD;
    if (reserved.substr(0, 5) == "EDF+C" || reserved.substr(0, 5) == "BDF+C") return Variant::EdfPlusC;
    if (reserved.substr(0, 5) == "EDF+D" || reserved.substr(0, 5) == "BDF+D") return Variant::EdfPlusD;
    return Variant::Edf;
}

core::Status recordFields(std::span<const std::uint8_t> b, EdfHeader& h, const std::string& path, Notes& notes)
{
    const auto records = number(field(b, 236, 8), "number of data records", notes);
    if (!records || *records != std::floor(*records) || *records < -1)
        return badField(path, 236, "the number of data records", field(b, 236, 8));
    if (*records > 99999999) // more than 8 digits can say: only an exponent ("6.9e+69") gets here
        return makeError(ErrorCode::Corrupt,
                         "the number of data records, " + core::formatNumber(*records) +
                             ", is more than the 99999999 its 8 characters can hold",
                         path, 236);
    h.recordCount = static_cast<std::int64_t>(*records);
    const auto seconds = number(field(b, 244, 8), "duration of a data record", notes);
    if (!seconds || *seconds < 0 || *seconds > 1e7)
        return badField(path, 244, "the duration of a data record", field(b, 244, 8));
    if (*seconds > 0 && *seconds < 1e-6) // 0 is allowed: a file of annotations only
        return makeError(ErrorCode::Corrupt,
                         "the duration of a data record, " + core::formatNumber(*seconds) +
                             " s, is below 1 microsecond (the resolution of recording times)",
                         path, 244);
    h.recordSeconds = *seconds;
    h.recordDurationUs = static_cast<core::Uutc>(std::llround(*seconds * 1e6));
    const auto declared = number(field(b, 184, 8), "header size", notes);
    if (!declared || !(*declared >= 0 && *declared <= 99999999) ||
        static_cast<std::int64_t>(*declared) != h.headerBytes)
        notes.warnings.push_back("the header size field says \"" + trimmed(field(b, 184, 8)) + "\", the header has " +
                                 std::to_string(h.headerBytes) + " bytes: used " + std::to_string(h.headerBytes));
    return {};
}

void scale(EdfSignal& s, std::size_t index, std::vector<std::string>& warnings)
{
    const std::string who = "signal " + std::to_string(index + 1) + " (\"" + s.label + "\")";
    if (s.digitalMin > s.digitalMax)
        warnings.push_back(who + ": digital minimum above maximum (mapping kept as given)");
    double digitalRange = static_cast<double>(s.digitalMax) - s.digitalMin;
    double physicalRange = s.physicalMax - s.physicalMin;
    if (digitalRange == 0.0) {
        warnings.push_back(who + ": digital minimum equals maximum: scale taken as 1 count per physical range");
        digitalRange = 1.0;
    }
    if (physicalRange == 0.0) {
        warnings.push_back(who + ": physical minimum equals maximum: scale taken as 1 per count");
        physicalRange = digitalRange;
    }
    s.factor = physicalRange / digitalRange;
    s.offset = s.physicalMin - s.digitalMin * s.factor;
}

// A physical bound over 1e30 in magnitude (no quantity is measured so; values would overflow a float), or a
// digital bound outside what the file's samples can hold (EDF 16 bits, BDF 24 bits): the field is damaged.
core::Status checkRange(double v, bool physical, bool bdf, const std::string& what, const std::string& path,
                        std::size_t at)
{
    constexpr double kMaxPhysical = 1e30;
    const double low = bdf ? -8388608.0 : -32768.0, high = bdf ? 8388607.0 : 32767.0;
    if (physical ? std::abs(v) <= kMaxPhysical : v >= low && v <= high) return {};
    const std::string range = physical ? "beyond 1e30 in magnitude"
                                       : "outside the " + std::string(bdf ? "24" : "16") + "-bit sample range [" +
                                             core::formatNumber(low) + ", " + core::formatNumber(high) + "]";
    return makeError(ErrorCode::Corrupt, what + " " + core::formatNumber(v) + " is " + range, path,
                     static_cast<std::int64_t>(at));
}

core::Status signalFields(std::span<const std::uint8_t> b, EdfHeader& h, std::size_t ns, const std::string& path,
                          Notes& notes)
{
    h.signals.resize(ns);
    std::size_t at = kFixedHeaderBytes;
    auto next = [&](std::size_t width, std::size_t k) { return at + k * width; };
    for (std::size_t k = 0; k < ns; ++k) h.signals[k].label = text(field(b, next(kLabel, k), kLabel), "label", notes);
    at += ns * kLabel;
    for (std::size_t k = 0; k < ns; ++k)
        h.signals[k].transducer = text(field(b, next(kTransducer, k), kTransducer), "transducer", notes);
    at += ns * kTransducer;
    for (std::size_t k = 0; k < ns; ++k) h.signals[k].unit = text(field(b, next(kUnit, k), kUnit), "unit", notes);
    at += ns * kUnit;
    const char* names[4] = {"physical minimum", "physical maximum", "digital minimum", "digital maximum"};
    for (int n = 0; n < 4; ++n, at += ns * kNumber) {
        for (std::size_t k = 0; k < ns; ++k) {
            const auto v = number(field(b, next(kNumber, k), kNumber), names[n], notes);
            const bool integral = n < 2 || (v && *v == std::floor(*v) && std::abs(*v) < 1e9);
            if (!v || !integral)
                return badField(path, next(kNumber, k), "signal " + std::to_string(k + 1) + "'s " + names[n],
                                field(b, next(kNumber, k), kNumber));
            LV_TRY(checkRange(*v, n < 2, h.bdf, "signal " + std::to_string(k + 1) + "'s " + names[n], path,
                              next(kNumber, k)));
            EdfSignal& s = h.signals[k];
            if (n == 0) s.physicalMin = *v;
            if (n == 1) s.physicalMax = *v;
            if (n == 2) s.digitalMin = static_cast<std::int32_t>(*v);
            if (n == 3) s.digitalMax = static_cast<std::int32_t>(*v);
        }
    }
    for (std::size_t k = 0; k < ns; ++k)
        h.signals[k].prefilter = text(field(b, next(kPrefilter, k), kPrefilter), "prefiltering", notes);
    at += ns * kPrefilter;
    for (std::size_t k = 0; k < ns; ++k) {
        const auto v = number(field(b, next(kNumber, k), kNumber), "samples per record", notes);
        if (!v || *v != std::floor(*v) || *v < 0 || *v > 1e8)
            return badField(path, next(kNumber, k), "signal " + std::to_string(k + 1) + "'s samples per record",
                            field(b, next(kNumber, k), kNumber));
        h.signals[k].samplesPerRecord = static_cast<std::int32_t>(*v);
        if (*v == 0 || h.recordSeconds == 0) continue; // no samples: the signal is skipped with a warning
        const std::string who = "signal " + std::to_string(k + 1) + "'s sampling rate";
        if (const std::string problem = core::samplingRateProblem(*v / h.recordSeconds, who); !problem.empty())
            return makeError(ErrorCode::Corrupt,
                             problem + " (" + trimmed(field(b, next(kNumber, k), kNumber)) + " samples a record of " +
                                 core::formatNumber(h.recordSeconds) + " s)",
                             path, static_cast<std::int64_t>(next(kNumber, k)));
    }
    return {};
}

void finishSignals(EdfHeader& h, std::vector<std::string>& warnings)
{
    const std::string annotationLabel = h.bdf ? "BDF Annotations" : "EDF Annotations";
    std::size_t offset = 0;
    for (std::size_t k = 0; k < h.signals.size(); ++k) {
        EdfSignal& s = h.signals[k];
        s.annotations = h.variant != Variant::Edf && (s.label == annotationLabel || s.label == "EDF Annotations");
        s.offsetInRecord = offset;
        offset += static_cast<std::size_t>(s.samplesPerRecord) * h.sampleBytes();
        if (!s.annotations) scale(s, k, warnings);
    }
    h.recordBytes = offset;
}

// Records of no duration hold annotations only (EDF+ 2.1): a signal with samples in them has no sample times.
core::Status checkZeroDuration(const EdfHeader& h, const std::string& path)
{
    if (h.recordSeconds != 0) return {};
    for (std::size_t k = 0; k < h.signals.size(); ++k)
        if (!h.signals[k].annotations && h.signals[k].samplesPerRecord > 0)
            return makeError(ErrorCode::Corrupt,
                             "the duration of a data record is 0, but signal " + std::to_string(k + 1) + " (\"" +
                                 h.signals[k].label + "\") has samples in each record (only annotations may)",
                             path, 244);
    return {};
}

} // namespace

std::string trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return std::string(text.substr(first, last - first + 1));
}

std::string EdfHeader::formatName() const
{
    const std::string base = bdf ? "BDF" : "EDF";
    return variant == Variant::Edf ? base : base + (variant == Variant::EdfPlusC ? "+C" : "+D");
}

core::Result<int> signalCount(std::span<const std::uint8_t> fixed, const std::string& path)
{
    if (fixed.size() < kFixedHeaderBytes)
        return makeError(ErrorCode::Truncated, "the file is shorter than an EDF header (256 bytes)", path,
                         static_cast<std::int64_t>(fixed.size()));
    const std::string_view version = field(fixed, 0, 8);
    if (version != "0       " &&
        version != "\xff"
                   "BIOSEMI" &&
        trimmed(version) != "0")
        return makeError(ErrorCode::Unsupported, "not an EDF or BDF file (the version field is not \"0\")", path, 0);
    std::vector<std::string> ignored;
    Notes notes{{}, {}, ignored};
    const auto n = number(field(fixed, 252, 4), "number of signals", notes);
    if (!n || *n != std::floor(*n) || *n < 0 || *n > kMaxSignals)
        return badField(path, 252, "the number of signals", field(fixed, 252, 4));
    return static_cast<int>(*n);
}

core::Result<EdfHeader> parseHeader(std::span<const std::uint8_t> bytes, const std::string& path,
                                    std::vector<std::string>& warnings)
{
    auto ns = signalCount(bytes, path);
    if (!ns) return ns.error();
    EdfHeader h;
    h.headerBytes = static_cast<std::int64_t>(kFixedHeaderBytes + kSignalHeaderBytes * static_cast<std::size_t>(*ns));
    if (bytes.size() < static_cast<std::size_t>(h.headerBytes))
        return makeError(ErrorCode::Truncated, "the header of " + std::to_string(*ns) + " signals is cut off", path,
                         static_cast<std::int64_t>(bytes.size()));
    h.bdf = bytes[0] == 0xff;
    if (!h.bdf && field(bytes, 0, 8) != "0       ") warnings.push_back("the version field is not padded with spaces");
    Notes notes{{}, {}, warnings};
    h.patient = text(field(bytes, 8, 80), "patient", notes);
    h.recording = text(field(bytes, 88, 80), "recording", notes);
    h.variant = variantOf(field(bytes, 192, 44), h.bdf);
    auto start = startTime(bytes, h.recording, path, warnings);
    if (!start) return start.error();
    h.start = *start;
    // EDF+'s convention for an unknown start date: "Startdate X" and 01.01.85 in the header; the time from
    // there is what is known (relative times).
    const std::vector<std::string> recordingParts = [&] {
        std::vector<std::string> parts;
        for (std::size_t at = 0; at < h.recording.size();) {
            const std::size_t space = std::min(h.recording.find(' ', at), h.recording.size());
            if (space > at) parts.push_back(h.recording.substr(at, space - at));
            at = space + 1;
        }
        return parts;
    }();
    if (h.variant != Variant::Edf && recordingParts.size() >= 2 && recordingParts[0] == "Startdate" &&
        recordingParts[1] == "X") {
        h.startDateUnknown = true;
        h.start -= kUnknownStartDate;
    }
    LV_TRY(recordFields(bytes, h, path, notes));
    LV_TRY(signalFields(bytes, h, static_cast<std::size_t>(*ns), path, notes));
    finishSignals(h, warnings);
    LV_TRY(checkZeroDuration(h, path));
    if (!notes.padded.empty()) {
        std::string list;
        for (const std::string& n : notes.padded) list += (list.empty() ? "" : ", ") + n;
        warnings.push_back("numbers not left-aligned in the header (" + list + ")");
    }
    for (const std::string& n : notes.nonAscii)
        warnings.push_back("non-ASCII bytes in the " + n + " field (read as UTF-8, else Latin-1)");
    return h;
}

} // namespace lv::formats::edf
