// TAL grammar: [+-]onset [0x15 duration] 0x14 (text 0x14)* 0x00, padded with 0x00 to the signal's end.
#include "formats/edf/Tal.h"

#include "core/TextEncoding.h"

#include "formats/edf/EdfHeader.h"

#include <cstdio>

namespace lv::formats::edf {

namespace {

constexpr std::uint8_t kDurationMark = 0x15, kTextEnd = 0x14;

// A decimal number of seconds at bytes[at...] ("12", "12.5", "0.000001"), in microseconds rounded to nearest;
// `at` moves past it. nullopt when there is no digit or it is absurdly long.
std::optional<core::Uutc> seconds(std::span<const std::uint8_t> b, std::size_t& at)
{
    std::int64_t whole = 0, fraction = 0;
    int wholeDigits = 0, fractionDigits = 0;
    bool roundUp = false;
    while (at < b.size() && b[at] >= '0' && b[at] <= '9') {
        if (++wholeDigits > 12) return std::nullopt;
        whole = whole * 10 + (b[at++] - '0');
    }
    if (at < b.size() && b[at] == '.') {
        ++at;
        while (at < b.size() && b[at] >= '0' && b[at] <= '9') {
            if (fractionDigits < 6) fraction = fraction * 10 + (b[at] - '0');
            if (fractionDigits == 6) roundUp = b[at] >= '5';
            ++fractionDigits;
            ++at;
        }
    }
    if (wholeDigits + fractionDigits == 0) return std::nullopt;
    for (int d = fractionDigits; d < 6; ++d) fraction *= 10;
    return whole * 1'000'000 + fraction + (roundUp ? 1 : 0);
}

std::optional<Tal> parseOne(std::span<const std::uint8_t> b, std::size_t& at)
{
    if (at >= b.size() || (b[at] != '+' && b[at] != '-')) return std::nullopt;
    const bool negative = b[at++] == '-';
    const auto onset = seconds(b, at);
    if (!onset) return std::nullopt;
    Tal tal;
    tal.onsetUs = negative ? -*onset : *onset;
    if (at < b.size() && b[at] == kDurationMark) {
        ++at;
        tal.durationUs = seconds(b, at);
        if (!tal.durationUs) return std::nullopt;
    }
    if (at >= b.size() || b[at] != kTextEnd) return std::nullopt;
    ++at;
    while (at < b.size() && b[at] != 0) {
        const std::size_t from = at;
        while (at < b.size() && b[at] != kTextEnd && b[at] != 0) ++at;
        if (at >= b.size() || b[at] != kTextEnd) return std::nullopt;
        tal.texts.push_back(core::utf8OrLatin1({reinterpret_cast<const char*>(b.data() + from), at - from}));
        ++at;
    }
    if (at >= b.size()) return std::nullopt; // no closing NUL
    ++at;
    return tal;
}

} // namespace

std::vector<Tal> parseTals(std::span<const std::uint8_t> bytes, std::vector<std::string>* problems)
{
    std::vector<Tal> out;
    std::size_t at = 0;
    while (at < bytes.size()) {
        if (bytes[at] == 0) {
            ++at;
            continue;
        }
        const std::size_t from = at;
        if (auto tal = parseOne(bytes, at)) {
            out.push_back(std::move(*tal));
            continue;
        }
        if (problems) problems->push_back("a malformed TAL at byte " + std::to_string(from) + " was skipped");
        at = from;
        while (at < bytes.size() && bytes[at] != 0) ++at;
    }
    return out;
}

std::string formatOnset(core::Uutc us)
{
    const char sign = us < 0 ? '-' : '+';
    const std::uint64_t a = us < 0 ? static_cast<std::uint64_t>(-(us + 1)) + 1 : static_cast<std::uint64_t>(us);
    char text[48];
    if (a % 1'000'000 == 0) {
        std::snprintf(text, sizeof text, "%c%llu", sign, static_cast<unsigned long long>(a / 1'000'000));
    } else {
        std::snprintf(text, sizeof text, "%c%llu.%06llu", sign, static_cast<unsigned long long>(a / 1'000'000),
                      static_cast<unsigned long long>(a % 1'000'000));
        std::string s = text;
        while (s.back() == '0') s.pop_back();
        return s;
    }
    return text;
}

std::string formatTal(core::Uutc onsetUs, std::optional<core::Uutc> durationUs, const std::vector<std::string>& texts)
{
    std::string s = formatOnset(onsetUs);
    if (durationUs) {
        s += static_cast<char>(kDurationMark);
        s += formatOnset(*durationUs).substr(1);
    }
    s += static_cast<char>(kTextEnd);
    for (const std::string& t : texts) {
        for (char c : t) // the TAL's own delimiters inside a text would end it or the TAL early
            s += c == static_cast<char>(kTextEnd) || c == static_cast<char>(kDurationMark) || c == '\0' ? ' ' : c;
        s += static_cast<char>(kTextEnd);
    }
    s += '\0';
    return s;
}

} // namespace lv::formats::edf
