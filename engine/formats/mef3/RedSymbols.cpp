// RED range decoding, scalar: meflib's RED_decode symbol loop with table lookup, and the choice of kernel.
#include "formats/mef3/RedSymbols.h"

#include "core/LittleEndian.h"

#include <algorithm>
#include <array>
#include <bit>

namespace lv::formats::mef3 {

namespace {

constexpr std::uint32_t kBottomValue = 0x800000u;
constexpr int kExtraBits = 7;

// Exact 32-bit division by a per-block constant through a 64-bit reciprocal (Lemire et al., 2019).
class ConstantDivisor {
public:
    explicit ConstantDivisor(std::uint32_t d) : m_magic(d > 1 ? UINT64_MAX / d + 1 : 0) {}
    std::uint32_t divide(std::uint32_t n) const
    {
        if (m_magic == 0) return n;
        return static_cast<std::uint32_t>((static_cast<unsigned __int128>(m_magic) * n) >> 64);
    }

private:
    std::uint64_t m_magic;
};

// The 64 bits starting at `at`, big-endian, zero past `end`.
std::uint64_t window(const std::uint8_t* at, const std::uint8_t* end)
{
    if (at < end && end - at >= 8) return __builtin_bswap64(core::le::load<std::uint64_t>(at));
    std::uint64_t w = 0;
    for (int i = 0; i < 8; ++i) w = (w << 8) | (at + i < end ? at[i] : 0u);
    return w;
}

// One lane's decoder, one symbol per step, with no data-dependent branch except the rare end-of-input case in
// window(). Its steps form one long dependency chain, so two lanes run side by side to keep the core busy.
class SymbolStream {
public:
    explicit SymbolStream(RedSymbolLane& lane)
        : m_lane(lane)
        , m_byTotal(lane.total)
        , m_at(lane.at)
        , m_low(lane.low)
        , m_range(lane.range)
    {}
    ~SymbolStream()
    {
        m_lane.at = m_at;
        m_lane.low = m_low;
        m_lane.range = m_range;
        m_lane.done = m_lane.count;
    }
    SymbolStream(const SymbolStream&) = delete;
    SymbolStream& operator=(const SymbolStream&) = delete;

    void step(std::uint32_t i)
    {
        const unsigned steps =
            (m_range <= kBottomValue) + (m_range <= (kBottomValue >> 8)) + (m_range <= (kBottomValue >> 16));
        const std::uint64_t bits = ((window(m_at, m_lane.end) << kExtraBits) >> 40) >> (24 - 8 * steps);
        m_low = static_cast<std::uint32_t>((static_cast<std::uint64_t>(m_low) << (8 * steps)) | bits);
        m_range <<= 8 * steps;
        m_at += steps;
        const std::uint32_t perCount = m_byTotal.divide(m_range);
        const std::uint32_t q = m_low / perCount;
        const RedLookupEntry e = m_lane.lookup[q >= m_lane.total ? m_lane.total - 1 : q];
        const std::uint32_t symbol = e & 0xffu;
        const std::uint32_t below = perCount * (e >> 16);
        m_low -= below;
        m_range = symbol == 255 ? m_range - below : perCount * ((e >> 8) & 0xffu);
        m_lane.symbols[i] = static_cast<std::uint8_t>(symbol);
    }

private:
    RedSymbolLane& m_lane;
    ConstantDivisor m_byTotal;
    const std::uint8_t* m_at;
    std::uint32_t m_low;
    std::uint32_t m_range;
};

// Runs two lanes' steps interleaved while both have symbols left, then each to its end.
void decodePair(RedSymbolLane& a, RedSymbolLane& b)
{
    SymbolStream sa(a), sb(b);
    std::uint32_t i = a.done, j = b.done;
    for (; i < a.count && j < b.count; ++i, ++j) {
        sa.step(i);
        sb.step(j);
    }
    for (; i < a.count; ++i) sa.step(i);
    for (; j < b.count; ++j) sb.step(j);
}

void decodeOne(RedSymbolLane& a)
{
    SymbolStream s(a);
    for (std::uint32_t i = a.done; i < a.count; ++i) s.step(i);
}

} // namespace

void fillRedLookup(std::span<const std::uint8_t, 256> statistics, RedLookupEntry* table)
{
    // Only the symbols that occur (EEG uses a few dozen of the 256), found 8 counts at a time, each written in
    // runs of 16 then 8 entries: a run's excess is overwritten by the next symbol's or lands in the table's slack.
    std::uint32_t cum = 0;
    for (std::uint32_t first = 0; first < 256; first += 8) {
        std::uint64_t counts = core::le::load<std::uint64_t>(statistics.data() + first);
        while (counts != 0) {
            const int bit = std::countr_zero(counts) & ~7;
            const std::uint32_t c = static_cast<std::uint32_t>(counts >> bit) & 0xffu;
            counts &= ~(std::uint64_t{0xff} << bit);
            const RedLookupEntry entry = (cum << 16) | (c << 8) | (first + static_cast<std::uint32_t>(bit / 8));
            RedLookupEntry* at = table + cum;
            for (int j = 0; j < 16; ++j) at[j] = entry; // most counts: no loop whose length varies
            for (std::uint32_t k = 16; k < c; k += 8)
                for (int j = 0; j < 8; ++j) at[k + j] = entry;
            cum += c;
        }
    }
}

RedSymbolLane startRedSymbolLane(const RedLookupEntry* lookup, std::uint32_t total, const std::uint8_t* in,
                                 const std::uint8_t* end, std::uint8_t* symbols, std::uint32_t count)
{
    RedSymbolLane lane;
    lane.lookup = lookup;
    lane.total = total;
    lane.count = count;
    lane.symbols = symbols;
    lane.at = in;
    lane.end = end;
    lane.low = in < end ? *in >> (8 - kExtraBits) : 0u;
    lane.range = 1u << kExtraBits;
    return lane;
}

namespace scalar {

void decodeRedSymbols(std::span<RedSymbolLane> lanes)
{
    RedSymbolLane* waiting = nullptr;
    for (RedSymbolLane& lane : lanes) {
        if (lane.done >= lane.count) continue;
        if (!waiting) {
            waiting = &lane;
            continue;
        }
        decodePair(*waiting, lane);
        waiting = nullptr;
    }
    if (waiting) decodeOne(*waiting);
}

} // namespace scalar

void decodeRedSymbols(std::span<RedSymbolLane> lanes, core::SimdLevel level)
{
#if defined(LONGVIEW_MEF3_X86_KERNELS)
    // Below three blocks the AVX2 kernel's registers run mostly empty: two scalar lanes do as well.
    constexpr std::size_t kAvx2From = 3;
    if (level >= core::SimdLevel::Avx2 && lanes.size() >= kAvx2From)
        avx2::decodeRedSymbols(lanes.data(), lanes.size(), kAvx2From);
#else
    (void)level;
#endif
    scalar::decodeRedSymbols(lanes);
}

} // namespace lv::formats::mef3
