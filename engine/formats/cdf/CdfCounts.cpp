// Stored values to counts, one loop per type and byte order.
#include "formats/cdf/CdfCounts.h"

#include "core/Recording.h"
#include "formats/cdf/CdfLoad.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace lv::formats::cdf {

namespace {

template <typename T, bool Swap>
bool convert(const CountCoding& c, const std::uint8_t* p, std::size_t stride, const std::uint8_t* held,
             std::size_t count, std::int32_t* out)
{
    const double fill = c.fill.value_or(std::numeric_limits<double>::quiet_NaN());
    const double pad = c.pad.value_or(std::numeric_limits<double>::quiet_NaN());
    constexpr bool kCounts = std::is_integral_v<T> && sizeof(T) <= 2; // every value fits int32 as it is
    int exponent = 0;
    const double inverse = std::frexp(c.step, &exponent) == 0.5 ? 1.0 / c.step : 0.0; // exact for a power of two
    bool fits = true;
    for (std::size_t r = 0; r < count; ++r) {
        if (!held[r]) continue;
        const T stored = loadAs<T, Swap>(p + r * stride);
        const auto value = static_cast<double>(stored);
        if (value == fill || value == pad) continue;
        if constexpr (kCounts) {
            if (c.step == 1.0) {
                out[r] = static_cast<std::int32_t>(stored); // NOLINT(bugprone-signed-char-misuse): INT1 is signed
                continue;
            }
        }
        if (std::isnan(value)) continue;
        const double q = inverse != 0.0 ? value * inverse : value / c.step; // the same when the step is 2^k
        if (!(std::abs(q) < 2147483647.5)) {                                // std::round(q) beyond int32
            fits = false;
            continue;
        }
        auto n = static_cast<std::int64_t>(q); // toward zero, then half away from zero as std::round
        const double rest = q - static_cast<double>(n);
        n += static_cast<std::int64_t>(rest >= 0.5) - static_cast<std::int64_t>(rest <= -0.5);
        out[r] = static_cast<std::int32_t>(n);
    }
    return fits;
}

template <bool Swap>
bool byType(const CountCoding& c, const std::uint8_t* p, std::size_t stride, const std::uint8_t* held,
            std::size_t count, std::int32_t* out)
{
    switch (c.type) {
    case kInt1:
    case kByte:
        return convert<std::int8_t, Swap>(c, p, stride, held, count, out);
    case kUint1:
        return convert<std::uint8_t, Swap>(c, p, stride, held, count, out);
    case kInt2:
        return convert<std::int16_t, Swap>(c, p, stride, held, count, out);
    case kUint2:
        return convert<std::uint16_t, Swap>(c, p, stride, held, count, out);
    case kInt4:
        return convert<std::int32_t, Swap>(c, p, stride, held, count, out);
    case kUint4:
        return convert<std::uint32_t, Swap>(c, p, stride, held, count, out);
    case kInt8:
        return convert<std::int64_t, Swap>(c, p, stride, held, count, out);
    case kReal4:
    case kFloat:
        return convert<float, Swap>(c, p, stride, held, count, out);
    case kReal8:
    case kDouble:
        return convert<double, Swap>(c, p, stride, held, count, out);
    default:
        return true;
    }
}

} // namespace

bool valuesToCounts(const CountCoding& coding, const std::uint8_t* values, std::size_t stride, const std::uint8_t* held,
                    std::size_t count, std::int32_t* out)
{
    const bool swap = (coding.order == ByteOrder::Big) == (std::endian::native == std::endian::little);
    return swap ? byType<true>(coding, values, stride, held, count, out)
                : byType<false>(coding, values, stride, held, count, out);
}

} // namespace lv::formats::cdf
