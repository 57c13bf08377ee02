// Header fields are printable ASCII, left-aligned and space-padded; numbers fit their 8 characters.
#include "formats/edf/EdfWriter.h"

#include "core/TimeFormat.h"

#include <cmath>
#include <cstdio>
#include <ctime>

namespace lv::formats::edf {

namespace {

core::Status put(std::string& out, std::size_t width, const std::string& text, const char* what)
{
    if (text.size() > width)
        return core::makeError(core::ErrorCode::InvalidArgument, std::string("EDF header: ") + what + " \"" + text +
                                                                     "\" is longer than " + std::to_string(width) +
                                                                     " characters");
    out += text;
    out.append(width - text.size(), ' ');
    return {};
}

std::string number(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", v);
    return text;
}

} // namespace

std::string asciiField(const std::string& text, bool noSpaces)
{
    std::string out;
    for (char c : text) out += (c >= 32 && c <= 126 && !(noSpaces && c == ' ')) ? c : '_';
    return out;
}

std::string formatPhysical(double value, bool up)
{
    for (int decimals = 7; decimals >= 0; --decimals) {
        const double scale = std::pow(10.0, decimals);
        const double rounded = (up ? std::ceil(value * scale - 1e-9) : std::floor(value * scale + 1e-9)) / scale;
        char text[64];
        std::snprintf(text, sizeof text, "%.*f", decimals, rounded);
        std::string s = text;
        if (s.find('.') != std::string::npos) {
            while (s.back() == '0') s.pop_back();
            if (s.back() == '.') s.pop_back();
        }
        if (s == "-0") s = "0";
        if (s.size() <= 8) return s;
    }
    return {};
}

core::Result<std::string> formatHeader(const WriterHeader& h)
{
    std::string out;
    const std::size_t ns = h.signals.size();
    out += h.bdf ? std::string("\xff"
                               "BIOSEMI")
                 : std::string("0       ");
    LV_TRY(put(out, 80, asciiField(h.patient, false), "patient"));
    LV_TRY(put(out, 80, asciiField(h.recording, false), "recording"));
    const core::CivilTime t =
        core::civilTime(static_cast<std::int64_t>(std::floor(static_cast<double>(h.start) / 1e6)));
    char text[32];
    std::snprintf(text, sizeof text, "%02u.%02u.%02u%02u.%02u.%02u", t.day, t.month,
                  static_cast<unsigned>(t.year % 100), t.hour, t.minute, t.second);
    out += text;
    LV_TRY(put(out, 8, std::to_string(256 * (ns + 1)), "header size"));
    const std::string kind = std::string(h.bdf ? "BDF+" : "EDF+") + (h.discontinuous ? "D" : "C");
    LV_TRY(put(out, 44, kind, "reserved"));
    LV_TRY(put(out, 8, std::to_string(h.recordCount), "number of records"));
    LV_TRY(put(out, 8, number(h.recordSeconds), "record duration"));
    LV_TRY(put(out, 4, std::to_string(ns), "number of signals"));
    for (const WriterSignal& s : h.signals) LV_TRY(put(out, 16, asciiField(s.label, false), "label"));
    for (const WriterSignal& s : h.signals) LV_TRY(put(out, 80, asciiField(s.transducer, false), "transducer"));
    for (const WriterSignal& s : h.signals) LV_TRY(put(out, 8, asciiField(s.unit, false), "unit"));
    for (const WriterSignal& s : h.signals) LV_TRY(put(out, 8, s.physicalMin, "physical minimum"));
    for (const WriterSignal& s : h.signals) LV_TRY(put(out, 8, s.physicalMax, "physical maximum"));
    for (const WriterSignal& s : h.signals) LV_TRY(put(out, 8, std::to_string(s.digitalMin), "digital minimum"));
    for (const WriterSignal& s : h.signals) LV_TRY(put(out, 8, std::to_string(s.digitalMax), "digital maximum"));
    for (const WriterSignal& s : h.signals) LV_TRY(put(out, 80, asciiField(s.prefilter, false), "prefiltering"));
    for (const WriterSignal& s : h.signals) LV_TRY(put(out, 8, std::to_string(s.samplesPerRecord), "samples"));
    for (std::size_t k = 0; k < ns; ++k) out.append(32, ' ');
    return out;
}

void appendRecord(std::string& out, bool bdf, std::span<const std::span<const std::int32_t>> samples,
                  const std::string& tals, std::size_t annotationBytes)
{
    for (const auto& signal : samples) {
        for (std::int32_t v : signal) {
            out += static_cast<char>(v & 0xff);
            out += static_cast<char>((v >> 8) & 0xff);
            if (bdf) out += static_cast<char>((v >> 16) & 0xff);
        }
    }
    out += tals.substr(0, annotationBytes);
    out.append(annotationBytes - std::min(annotationBytes, tals.size()), '\0');
}

} // namespace lv::formats::edf
