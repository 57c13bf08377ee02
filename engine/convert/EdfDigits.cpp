// The integer path's condition: x = c (f / s) + (o - so) / s lies within 0.4 of c + K for every count c of the
// channel, so nearbyint(x) = c + K (the floating-point error of the expression is far below the remaining 0.1).
#include "convert/EdfDigits.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace lv::convert {

EdfDigits::EdfDigits(const core::ChannelInfo& source, const EdfChannel& signal, double fill, std::int32_t minimum,
                     std::int32_t maximum)
    : m_factor(source.conversionFactor)
    , m_offset(source.offset)
    , m_scale(signal.scale)
    , m_signalOffset(signal.offset)
    , m_low(signal.signal.digitalMin)
    , m_high(signal.signal.digitalMax)
{
    const double digital = std::nearbyint((fill - m_signalOffset) / m_scale);
    m_fill = static_cast<std::int32_t>(std::clamp(digital, static_cast<double>(m_low), static_cast<double>(m_high)));
    if (minimum > maximum || m_scale == 0.0) return;
    const double ratio = m_factor / m_scale, k = (m_offset - m_signalOffset) / m_scale;
    if (!std::isfinite(ratio) || !std::isfinite(k) || std::abs(k) > 1e9) return;
    const double largest = std::max(std::abs(static_cast<double>(minimum)), std::abs(static_cast<double>(maximum)));
    const double shift = std::nearbyint(k);
    m_shift = static_cast<std::int64_t>(shift);
    m_integral = std::abs(ratio - 1.0) * largest + std::abs(k - shift) < 0.4 && minimum + m_shift >= m_low &&
                 maximum + m_shift <= m_high; // then no count needs the clamp
}

std::int32_t EdfDigits::operator()(std::int32_t count) const
{
    if (count == core::kNoSample) return m_fill;
    const double physical = count * m_factor + m_offset;
    const double d = std::nearbyint((physical - m_signalOffset) / m_scale);
    return static_cast<std::int32_t>(std::clamp(d, static_cast<double>(m_low), static_cast<double>(m_high)));
}

void EdfDigits::write(std::span<const std::int32_t> counts, bool bdf, char* out) const
{
    const std::size_t n = counts.size();
    if (std::endian::native == std::endian::little && !bdf && m_integral) {
        // Counts lie in [minimum, maximum], whose c + K lie in the digital range: no clamp. (Counts outside it
        // come only from a wrong prediction, whose output is dropped: unsigned arithmetic keeps that defined.)
        const auto shift = static_cast<std::uint32_t>(m_shift);
        const auto fill = static_cast<std::uint16_t>(m_fill);
        for (std::size_t i = 0; i < n; ++i) {
            const std::int32_t c = counts[i];
            const auto d = static_cast<std::uint16_t>(static_cast<std::uint32_t>(c) + shift);
            const std::uint16_t v = c == core::kNoSample ? fill : d;
            std::memcpy(out + 2 * i, &v, 2);
        }
        return;
    }
    const std::size_t width = bdf ? 3 : 2;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int32_t c = counts[i];
        const std::int32_t v = m_integral && c != core::kNoSample
                                   ? static_cast<std::int32_t>(std::clamp<std::int64_t>(c + m_shift, m_low, m_high))
                                   : (*this)(c);
        char* p = out + width * i;
        p[0] = static_cast<char>(v & 0xff);
        p[1] = static_cast<char>((v >> 8) & 0xff);
        if (bdf) p[2] = static_cast<char>((v >> 16) & 0xff);
    }
}

} // namespace lv::convert
