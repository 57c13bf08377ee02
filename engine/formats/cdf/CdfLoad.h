// One stored value of a CDF variable as the machine holds it: `Swap` when the file's byte order is not the
// machine's (the choice made once per loop by the callers, not per value).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace lv::formats::cdf {

template <typename T, bool Swap>
T loadAs(const std::uint8_t* p)
{
    using U = std::conditional_t<sizeof(T) == 1, std::uint8_t,
                                 std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                                    std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
    U u;
    std::memcpy(&u, p, sizeof(U));
    if constexpr (Swap && sizeof(U) == 2) u = __builtin_bswap16(u);
    if constexpr (Swap && sizeof(U) == 4) u = __builtin_bswap32(u);
    if constexpr (Swap && sizeof(U) == 8) u = __builtin_bswap64(u);
    return std::bit_cast<T>(u);
}

} // namespace lv::formats::cdf
