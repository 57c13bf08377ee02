// MEF 3.0 CRC-32: Koopman polynomial (reflected 0xEB31D82E), start 0xFFFFFFFF, no final XOR.
#pragma once

#include <cstdint>
#include <span>

namespace lv::formats::mef3 {

inline constexpr std::uint32_t kCrcStart = 0xFFFFFFFFu;

// Extends `crc` over `bytes`; crc32(a+b) == crc32Update(crc32(a), b).
std::uint32_t crc32Update(std::uint32_t crc, std::span<const std::uint8_t> bytes);

inline std::uint32_t crc32(std::span<const std::uint8_t> bytes) { return crc32Update(kCrcStart, bytes); }

// The two implementations crc32Update chooses from (exposed for tests and benchmarks): slicing-by-8 tables,
// and carry-less-multiply folding where the CPU has PCLMULQDQ and SSE4.1 (x86-64 builds; elsewhere the
// tables serve both).
std::uint32_t crc32UpdateTables(std::uint32_t crc, std::span<const std::uint8_t> bytes);
std::uint32_t crc32UpdateFolding(std::uint32_t crc, std::span<const std::uint8_t> bytes);
bool crc32HasFolding(); // whether crc32UpdateFolding uses the carry-less multiply here

} // namespace lv::formats::mef3
