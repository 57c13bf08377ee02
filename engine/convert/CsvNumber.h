// Physical values in CSV at the channel's resolution: the shortest decimal that identifies the stored count.
#pragma once

#include <cstdint>
#include <string>

namespace lv::convert {

// Appends the decimal with the fewest decimals, count * factor + offset rounded to them, for which
// round((x - offset) / factor) == count: a count of 297 at 0.1 per count is "29.7", never "29.700000000000003",
// and 300 is "30". Magnitudes below 1e-5 or from 1e15 are written in general notation with the fewest significant
// digits ("3.2e-06"). `factor` must be finite and non-zero.
void appendCountValue(std::string& out, std::int32_t count, double factor, double offset);

// The same for every count of one channel, faster: where the factor is 10^-k (k = 0..9) and the offset 0, the
// value is the count with a decimal point k places from the right and its trailing zeros dropped, which is the
// shortest identifying decimal (any shorter one lies at least 10^-k, a whole step, away); otherwise (and for
// magnitudes below 1e-5, written in general notation) appendCountValue.
class CountFormat {
public:
    CountFormat(double factor, double offset);
    void append(std::string& out, std::int32_t count) const;

private:
    double m_factor, m_offset;
    int m_decimals = -1; // k of the fast path, or -1
};

} // namespace lv::convert
