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
    if (magnitude < 1e-5 && identifies("0", "0" + 1, count, factor, offset)) {
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

} // namespace lv::convert
