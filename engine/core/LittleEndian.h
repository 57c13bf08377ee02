// Explicit little-endian field reads and writes on byte spans (never a cast of a packed struct).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace lv::core::le {

template <typename T>
inline T load(const std::uint8_t* p)
{
    static_assert(std::endian::native == std::endian::little, "big-endian hosts need byte swapping here");
    T value;
    std::memcpy(&value, p, sizeof(T));
    return value;
}

inline std::uint8_t u8(std::span<const std::uint8_t> b, std::size_t at) { return b[at]; }
inline std::int8_t i8(std::span<const std::uint8_t> b, std::size_t at) { return static_cast<std::int8_t>(b[at]); }
inline std::uint16_t u16(std::span<const std::uint8_t> b, std::size_t at) { return load<std::uint16_t>(&b[at]); }
inline std::uint32_t u32(std::span<const std::uint8_t> b, std::size_t at) { return load<std::uint32_t>(&b[at]); }
inline std::int32_t i32(std::span<const std::uint8_t> b, std::size_t at) { return load<std::int32_t>(&b[at]); }
inline std::int64_t i64(std::span<const std::uint8_t> b, std::size_t at) { return load<std::int64_t>(&b[at]); }
inline std::uint64_t u64(std::span<const std::uint8_t> b, std::size_t at) { return load<std::uint64_t>(&b[at]); }
inline float f32(std::span<const std::uint8_t> b, std::size_t at) { return load<float>(&b[at]); }
inline double f64(std::span<const std::uint8_t> b, std::size_t at) { return load<double>(&b[at]); }

// A NUL-terminated (or full-width) text field of `size` bytes.
inline std::string text(std::span<const std::uint8_t> b, std::size_t at, std::size_t size)
{
    std::size_t n = 0;
    while (n < size && b[at + n] != 0) ++n;
    return std::string(reinterpret_cast<const char*>(&b[at]), n);
}

template <typename T>
inline void store(std::uint8_t* p, T value)
{
    std::memcpy(p, &value, sizeof(T));
}

// Writes `text` into a zero-filled field of `size` bytes, truncated so that a NUL always ends it.
inline void storeText(std::span<std::uint8_t> b, std::size_t at, std::size_t size, const std::string& text)
{
    std::memset(&b[at], 0, size);
    std::memcpy(&b[at], text.data(), std::min(text.size(), size - 1));
}

} // namespace lv::core::le
