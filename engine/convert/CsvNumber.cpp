// Shortest identifying decimals: "0" for a tiny value when it identifies the count, else fixed notation with
// 0, 1, 2, ... decimals (general notation for magnitudes where fixed would be long), each candidate read back.
#include "convert/CsvNumber.h"

#include <charconv>
#include <cmath>

namespace lv::convert {

namespace {

bool identifies(const char* first, const char* last, std::int32_t count, double factor, double offset)
{
    double back = 0;
    const auto [end, ec] = std::from_chars(first, last, back);
    return ec == std::errc() && end == last && std::llround((back - offset) / factor) == count;
}

} // namespace

void appendCountValue(std::string& out, std::int32_t count, double factor, double offset)
{
    const double value = static_cast<double>(count) * factor + offset;
    char buf[64];
    const double magnitude = std::abs(value);
    // "0" where it identifies the count (a count of 0 whose offset is a rounding residue, 3e-13)
    static constexpr char kZero[] = "0";
    if (magnitude < 1e-5 && identifies(kZero, kZero + 1, count, factor, offset)) {
        out += '0';
        return;
    }
    const bool fixed = magnitude == 0 || (magnitude >= 1e-5 && magnitude < 1e15);
    for (int digits = fixed ? 0 : 1; digits <= 17; ++digits) {
        const auto r = fixed ? std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, digits)
                             : std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, digits);
        if (identifies(buf, r.ptr, count, factor, offset)) {
            out.append(buf, r.ptr);
            return;
        }
    }
    const auto r = std::to_chars(buf, buf + sizeof buf, value); // the double itself always identifies the count
    out.append(buf, r.ptr);
}

CountFormat::CountFormat(double factor, double offset) : m_factor(factor), m_offset(offset)
{
    constexpr double kPowers[] = {1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
    if (offset != 0.0) return;
    for (int k = 0; k < 10; ++k)
        if (factor == kPowers[k]) m_decimals = k;
}

void CountFormat::append(std::string& out, std::int32_t count) const
{
    const std::int64_t size = count < 0 ? -static_cast<std::int64_t>(count) : count;
    // 0, and magnitudes below 1e-5 (general notation there, decided on the double as the search does), search
    if (m_decimals < 0 || count == 0 || std::abs(static_cast<double>(count) * m_factor) < 1e-5)
        return appendCountValue(out, count, m_factor, m_offset);
    char digits[16];
    const auto end = std::to_chars(digits, digits + sizeof digits, static_cast<std::uint64_t>(size)).ptr;
    auto n = static_cast<int>(end - digits);
    int decimals = m_decimals;
    while (decimals > 0 && digits[n - 1] == '0') --n, --decimals; // trailing zeros of the fraction go
    if (count < 0) out += '-';
    if (n <= decimals) { // below 1: "0.0..." then the digits
        out += "0.";
        out.append(static_cast<std::size_t>(decimals - n), '0');
        out.append(digits, static_cast<std::size_t>(n));
        return;
    }
    out.append(digits, static_cast<std::size_t>(n - decimals));
    if (decimals > 0) out += '.', out.append(digits + n - decimals, static_cast<std::size_t>(decimals));
}

} // namespace lv::convert
