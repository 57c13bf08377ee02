// MEF 3.0 CRC-32: slicing-by-8 tables, and the choice of the carry-less-multiply folding (Crc32Clmul.cpp) at run time.
#include "formats/mef3/Crc32.h"

#include "core/LittleEndian.h"

#include <array>

namespace lv::formats::mef3 {

namespace {

constexpr std::uint32_t kPolynomial = 0xEB31D82Eu;

using Tables = std::array<std::array<std::uint32_t, 256>, 8>;

constexpr Tables makeTables()
{
    Tables t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ kPolynomial : c >> 1;
        t[0][i] = c;
    }
    for (std::size_t s = 1; s < 8; ++s)
        for (std::size_t i = 0; i < 256; ++i) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
    return t;
}

constexpr Tables kTables = makeTables();
static_assert(kTables[0][1] == 0x9695C4CAu, "Koopman table differs from the MEF 3.0 reference");

constexpr std::size_t kMinFoldingBytes = 64; // the folding starts with four 16-byte lanes

#if defined(LV_CRC32_CLMUL)
bool detectFolding()
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
}
const bool kHasFolding = detectFolding();
#else
constexpr bool kHasFolding = false;
#endif

} // namespace

#if defined(LV_CRC32_CLMUL)
namespace detail {
std::uint32_t crc32UpdateClmul(std::uint32_t crc, const std::uint8_t* p, std::size_t n); // n >= 64, n % 16 == 0
}
#endif

bool crc32HasFolding() { return kHasFolding; }

std::uint32_t crc32UpdateFolding(std::uint32_t crc, std::span<const std::uint8_t> bytes)
{
#if defined(LV_CRC32_CLMUL)
    if (kHasFolding && bytes.size() >= kMinFoldingBytes) {
        const std::size_t whole = bytes.size() & ~std::size_t{15};
        crc = detail::crc32UpdateClmul(crc, bytes.data(), whole);
        return crc32UpdateTables(crc, bytes.subspan(whole));
    }
#endif
    return crc32UpdateTables(crc, bytes);
}

std::uint32_t crc32Update(std::uint32_t crc, std::span<const std::uint8_t> bytes)
{
    return crc32UpdateFolding(crc, bytes);
}

std::uint32_t crc32UpdateTables(std::uint32_t crc, std::span<const std::uint8_t> bytes)
{
    const std::uint8_t* p = bytes.data();
    std::size_t n = bytes.size();
    while (n >= 8) {
        const std::uint32_t lo = core::le::load<std::uint32_t>(p) ^ crc;
        const std::uint32_t hi = core::le::load<std::uint32_t>(p + 4);
        crc = kTables[7][lo & 0xff] ^ kTables[6][(lo >> 8) & 0xff] ^ kTables[5][(lo >> 16) & 0xff] ^
              kTables[4][lo >> 24] ^ kTables[3][hi & 0xff] ^ kTables[2][(hi >> 8) & 0xff] ^
              kTables[1][(hi >> 16) & 0xff] ^ kTables[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n--) crc = (crc >> 8) ^ kTables[0][(crc ^ *p++) & 0xff];
    return crc;
}

} // namespace lv::formats::mef3
