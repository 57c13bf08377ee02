// MEF 3.0 CRC-32: Koopman polynomial (reflected 0xEB31D82E), start 0xFFFFFFFF, no final XOR.
#pragma once

#include <cstdint>
#include <span>

namespace lv::formats::mef3 {

inline constexpr std::uint32_t kCrcStart = 0xFFFFFFFFu;

// Extends `crc` over `bytes`; crc32(a+b) == crc32Update(crc32(a), b).
std::uint32_t crc32Update(std::uint32_t crc, std::span<const std::uint8_t> bytes);

inline std::uint32_t crc32(std::span<const std::uint8_t> bytes) { return crc32Update(kCrcStart, bytes); }

} // namespace lv::formats::mef3
