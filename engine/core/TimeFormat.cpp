// Civil-date conversions (proleptic Gregorian, Howard Hinnant's days_from_civil) and argument parsing.
#include "core/TimeFormat.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace lv::core {

std::string formatNumber(double value, int digits)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return text;
}

std::string samplingRateProblem(double fs, const std::string& field)
{
    if (plausibleSamplingRate(fs)) return {};
    return field + " " + formatNumber(fs) + " Hz is outside [" + formatNumber(kMinSamplingRate) + ", " +
           formatNumber(kMaxSamplingRate) + "] Hz";
}

std::int64_t daysFromCivil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

namespace {

constexpr std::int64_t kUsPerDay = 86400LL * 1000000LL;

void civilFromDays(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d)
{
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
}

Error badTime(std::string_view text)
{
    return makeError(ErrorCode::InvalidArgument,
                     "cannot read time \"" + std::string(text) +
                         "\": give integer uUTC, ISO 8601 (2024-01-01T10:00:00Z) or +SECONDS from the start");
}

// Reads exactly `digits` decimal digits at text[pos].
bool digitsAt(std::string_view text, std::size_t pos, std::size_t digits, int& value)
{
    if (pos + digits > text.size()) return false;
    value = 0;
    for (std::size_t i = 0; i < digits; ++i) {
        const char c = text[pos + i];
        if (c < '0' || c > '9') return false;
        value = value * 10 + (c - '0');
    }
    return true;
}

Result<Uutc> parseIso(std::string_view t)
{
    int y, mo, d, h, mi, s;
    if (!digitsAt(t, 0, 4, y) || t[4] != '-' || !digitsAt(t, 5, 2, mo) || t.size() < 10 || t[7] != '-' ||
        !digitsAt(t, 8, 2, d))
        return badTime(t);
    std::size_t pos = 10;
    h = mi = s = 0;
    if (pos < t.size() && (t[pos] == 'T' || t[pos] == ' ')) {
        if (!digitsAt(t, pos + 1, 2, h) || t.size() < pos + 6 || t[pos + 3] != ':' || !digitsAt(t, pos + 4, 2, mi))
            return badTime(t);
        pos += 6;
        if (pos < t.size() && t[pos] == ':') {
            if (!digitsAt(t, pos + 1, 2, s)) return badTime(t);
            pos += 3;
        }
    }
    std::int64_t micros = 0;
    if (pos < t.size() && (t[pos] == '.' || t[pos] == ',')) {
        int scale = 100000, digit = 0;
        ++pos;
        while (pos < t.size() && digitsAt(t, pos, 1, digit))
            micros += static_cast<std::int64_t>(digit) * scale, scale /= 10, ++pos;
    }
    std::int64_t offsetMinutes = 0;
    if (pos < t.size() && t[pos] == 'Z') {
        ++pos;
    } else if (pos < t.size() && (t[pos] == '+' || t[pos] == '-')) {
        int oh = 0, om = 0;
        if (!digitsAt(t, pos + 1, 2, oh)) return badTime(t);
        std::size_t next = pos + 3;
        if (next < t.size() && t[next] == ':') ++next;
        if (next < t.size() && !digitsAt(t, next, 2, om)) return badTime(t);
        if (next < t.size()) next += 2;
        offsetMinutes = (t[pos] == '-' ? -1 : 1) * (static_cast<std::int64_t>(oh) * 60 + om);
        pos = next;
    }
    if (pos != t.size() || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return badTime(t);
    const std::int64_t days = daysFromCivil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d));
    return days * kUsPerDay + ((h * 60LL + mi) * 60LL + s) * 1000000LL + micros - offsetMinutes * 60000000LL;
}

} // namespace

CivilTime civilTime(std::int64_t seconds)
{
    std::int64_t days = seconds / 86400, rest = seconds % 86400;
    if (rest < 0) rest += 86400, --days;
    CivilTime c;
    civilFromDays(days, c.year, c.month, c.day);
    c.hour = static_cast<unsigned>(rest / 3600);
    c.minute = static_cast<unsigned>(rest / 60 % 60);
    c.second = static_cast<unsigned>(rest % 60);
    return c;
}

std::string formatIso(Uutc t)
{
    std::int64_t days = t / kUsPerDay, rest = t % kUsPerDay;
    if (rest < 0) rest += kUsPerDay, --days;
    std::int64_t y;
    unsigned m, d;
    civilFromDays(days, y, m, d);
    const std::int64_t secs = rest / 1000000;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%06lld+00:00", static_cast<long long>(y), m,
                  d, static_cast<long long>(secs / 3600), static_cast<long long>(secs / 60 % 60),
                  static_cast<long long>(secs % 60), static_cast<long long>(rest % 1000000));
    return buf;
}

std::string formatSeconds(std::int64_t us)
{
    const bool negative = us < 0;
    const std::uint64_t a = negative ? static_cast<std::uint64_t>(-(us + 1)) + 1 : static_cast<std::uint64_t>(us);
    std::string text = (negative ? "-" : "") + std::to_string(a / 1000000);
    std::uint64_t frac = a % 1000000;
    if (frac != 0) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "%06llu", static_cast<unsigned long long>(frac));
        std::string f(buf);
        while (f.back() == '0') f.pop_back();
        text += "." + f;
    }
    return text;
}

Result<Uutc> parseTimeArgument(std::string_view text, Uutc start)
{
    if (text.empty()) return badTime(text);
    if (text[0] == '+') {
        double seconds = 0;
        const auto [end, ec] = std::from_chars(text.data() + 1, text.data() + text.size(), seconds);
        if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(seconds)) return badTime(text);
        return start + static_cast<Uutc>(std::llround(seconds * 1e6));
    }
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size()) return value;
    return parseIso(text);
}

} // namespace lv::core
