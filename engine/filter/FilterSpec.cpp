// Filter specs parsed from and written to text, and designed into one cascade per channel rate.
#include "filter/FilterSpec.h"

#include "filter/Butterworth.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace lv::filter {

namespace {

core::Error bad(const std::string& what)
{
    return core::makeError(core::ErrorCode::InvalidArgument, "filter \"" + what);
}

std::optional<double> number(const std::string& text)
{
    double v = 0;
    const char* end = text.data() + text.size();
    const auto [at, ec] = std::from_chars(text.data(), end, v);
    if (ec != std::errc() || at != end || !std::isfinite(v)) return std::nullopt;
    return v;
}

// "1-40" as {1, 40}.
std::optional<std::pair<double, double>> band(const std::string& text)
{
    const std::size_t dash = text.find('-', 1);
    if (dash == std::string::npos) return std::nullopt;
    const auto low = number(text.substr(0, dash)), high = number(text.substr(dash + 1));
    if (!low || !high) return std::nullopt;
    return std::make_pair(*low, *high);
}

// Short, for labels: "0.5", "70".
std::string g(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

// The shortest text that reads back to v (specs round trip through text).
std::string exact(double v)
{
    char text[32];
    const auto [end, ec] = std::to_chars(text, text + sizeof text, v);
    return ec == std::errc() ? std::string(text, end) : g(v);
}

core::Status apply(FilterSpec& s, const std::string& key, const std::string& value)
{
    const std::string part = key + (value.empty() ? "" : "=" + value);
    if (key == "causal" && value.empty()) {
        s.phase = Phase::Causal;
        return {};
    }
    if (key == "bp" || key == "bs") {
        const auto b = band(value);
        if (!b) return bad(part + "\": a band is two frequencies in Hz, as " + key + "=1-40");
        (key == "bp" ? s.bandPassLowHz : s.bandStopLowHz) = b->first;
        (key == "bp" ? s.bandPassHighHz : s.bandStopHighHz) = b->second;
        return {};
    }
    const auto v = number(value);
    if (!v) return bad(part + "\": expected hp, lp, bp, bs, notch, harmonics, order, q or causal with a number");
    if (*v < 0) return bad(part + "\": frequencies and factors are not negative");
    if (key == "hp")
        s.highPassHz = *v;
    else if (key == "lp")
        s.lowPassHz = *v;
    else if (key == "notch")
        s.notchHz = *v;
    else if (key == "q")
        s.notchQ = *v;
    else if (key == "order" && *v == std::floor(*v) && *v >= 1 && *v <= kMaxOrder)
        s.order = static_cast<int>(*v);
    else if (key == "harmonics" && *v == std::floor(*v) && *v >= 1 && *v <= 20)
        s.notchHarmonics = static_cast<int>(*v);
    else if (key == "order" || key == "harmonics")
        return bad(part + "\": " + key + (key == "order" ? " is a whole number from 1 to 8" : " is 1 to 20"));
    else
        return bad(part + "\": expected hp, lp, bp, bs, notch, harmonics, order, q or causal");
    return {};
}

} // namespace

bool FilterSpec::any() const
{
    return highPassHz > 0 || lowPassHz > 0 || bandPassHighHz > 0 || bandStopHighHz > 0 || notchHz > 0;
}

core::Result<FilterSpec> parseFilterSpec(const std::string& text)
{
    FilterSpec s;
    if (text.empty() || text == "none") return s;
    std::stringstream parts(text);
    for (std::string part; std::getline(parts, part, ',');) {
        const std::size_t eq = part.find('=');
        LV_TRY(apply(s, part.substr(0, eq), eq == std::string::npos ? "" : part.substr(eq + 1)));
    }
    return s;
}

std::string filterSpecText(const FilterSpec& s)
{
    std::string out;
    const auto add = [&](const std::string& part) { out += (out.empty() ? "" : ",") + part; };
    if (s.highPassHz > 0) add("hp=" + exact(s.highPassHz));
    if (s.lowPassHz > 0) add("lp=" + exact(s.lowPassHz));
    if (s.bandPassHighHz > 0) add("bp=" + exact(s.bandPassLowHz) + "-" + exact(s.bandPassHighHz));
    if (s.bandStopHighHz > 0) add("bs=" + exact(s.bandStopLowHz) + "-" + exact(s.bandStopHighHz));
    if (s.notchHz > 0) add("notch=" + exact(s.notchHz));
    if (s.notchHz > 0 && s.notchHarmonics != 1) add("harmonics=" + std::to_string(s.notchHarmonics));
    if (s.notchHz > 0 && s.notchQ != 30) add("q=" + exact(s.notchQ));
    if (s.order != 2) add("order=" + std::to_string(s.order));
    if (s.phase == Phase::Causal) add("causal");
    return out.empty() ? "none" : out;
}

std::string filterLabel(const FilterSpec& s)
{
    std::string out;
    const auto add = [&](const std::string& part) { out += (out.empty() ? "" : " ") + part; };
    if (s.highPassHz > 0) add("HP " + g(s.highPassHz));
    if (s.lowPassHz > 0) add("LP " + g(s.lowPassHz));
    if (s.bandPassHighHz > 0) add("BP " + g(s.bandPassLowHz) + "-" + g(s.bandPassHighHz));
    if (s.bandStopHighHz > 0) add("BS " + g(s.bandStopLowHz) + "-" + g(s.bandStopHighHz));
    if (s.notchHz > 0) add("N" + g(s.notchHz));
    if (!out.empty() && s.phase == Phase::Causal) out += ", causal";
    return out;
}

core::Result<Sos> designFilter(const FilterSpec& s, double fs)
{
    Sos sos;
    const auto append = [&](core::Result<Sos> part) -> core::Status {
        if (!part) return part.error();
        sos.insert(sos.end(), part->begin(), part->end());
        return {};
    };
    if (s.highPassHz > 0) LV_TRY(append(butterworth(Band::HighPass, s.order, fs, s.highPassHz)));
    if (s.lowPassHz > 0) LV_TRY(append(butterworth(Band::LowPass, s.order, fs, s.lowPassHz)));
    if (s.bandPassHighHz > 0)
        LV_TRY(append(butterworth(Band::BandPass, s.order, fs, s.bandPassLowHz, s.bandPassHighHz)));
    if (s.bandStopHighHz > 0)
        LV_TRY(append(butterworth(Band::BandStop, s.order, fs, s.bandStopLowHz, s.bandStopHighHz)));
    for (int h = 1; s.notchHz > 0 && h <= s.notchHarmonics && h * s.notchHz < fs / 2; ++h) {
        auto n = notch(fs, h * s.notchHz, s.notchQ);
        if (!n) return n.error();
        sos.push_back(*n);
    }
    if (s.notchHz > 0 && !(s.notchHz < fs / 2)) LV_TRY(notch(fs, s.notchHz, s.notchQ)); // its error, in words
    return sos;
}

} // namespace lv::filter
