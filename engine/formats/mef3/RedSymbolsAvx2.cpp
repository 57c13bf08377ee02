// RED range decoding, AVX2 (compiled with -mavx2 only): blocks' decoders four to a register, two registers in flight.
//
// Each 64-bit lane holds one block's 32-bit state. The two divisions of a step (range / total, low / perCount) run
// in double precision, where they are exact: for integers a < 2^32 and 1 <= b < 2^32 the rounded quotient never
// reaches the next integer (its distance is at least 1/b, far above the rounding error), and range / total is a
// multiply by 1/total rounded up (total <= 65,280). The coded bytes and the lookup entries are read by four scalar
// loads per register (on AMD Zen 3 a gather's latency is no better, measured); a block's input is read as the 4
// bytes at min(at, end - 4), shifted so that bytes past the end read as zeros, as meflib's decoder sees them.
// The step is one long dependency chain (about 50 cycles: the division, the entry's load, the multiplies): two
// registers in flight, 3 or 4 measured no faster.
#include "formats/mef3/RedSymbols.h"

#include <immintrin.h>

#include <cstring>

namespace lv::formats::mef3::avx2 {

namespace {

constexpr int kGroups = 2; // registers of four lanes in flight
constexpr int kLanes = 4 * kGroups;
constexpr std::uint32_t kChunk = 16; // steps between lane refills
static_assert(kChunk <= kRedSymbolSlack);

// What an idle lane decodes: one entry (symbol 0, count 1) over zeros; its range stays at 2^31.
alignas(8) constexpr std::uint32_t kIdleTable[2] = {0x100u, 0u};
alignas(8) constexpr std::uint8_t kIdleInput[8] = {};

// A register's lanes at a chunk boundary, as plain numbers.
struct alignas(32) GroupState {
    std::uint64_t low[4];
    std::uint64_t range[4];
    std::uint64_t at[4];    // address of the next coded byte
    std::uint64_t last4[4]; // address of the last 4 coded bytes
    double totalMinus1[4];
    double byTotal[4]; // 1 / total, rounded up
    const RedLookupEntry* table[4];
};

// What changes from step to step, in registers; the rest is read from the GroupState.
struct Group {
    __m256i low, range, at;
};

__m256i loadLanes(const std::uint64_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }

Group load(const GroupState& s) { return {loadLanes(s.low), loadLanes(s.range), loadLanes(s.at)}; }

void store(const Group& g, GroupState& s)
{
    auto o = [](std::uint64_t* p, __m256i v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); };
    o(s.low, g.low);
    o(s.range, g.range);
    o(s.at, g.at);
}

std::uint64_t address(const void* p)
{
    std::uint64_t a = 0;
    static_assert(sizeof(p) == sizeof a);
    std::memcpy(&a, &p, sizeof a);
    return a;
}

const std::uint8_t* pointer(std::uint64_t a)
{
    const std::uint8_t* p = nullptr;
    std::memcpy(&p, &a, sizeof a);
    return p;
}

// Integers below 2^52 to and from doubles through the mantissa of 2^52.
constexpr std::int64_t kMagicBits = 0x4330000000000000;
constexpr double kMagic = 4503599627370496.0;

__m256d toDouble(__m256i v)
{
    return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(v, _mm256_set1_epi64x(kMagicBits))),
                         _mm256_set1_pd(kMagic));
}

__m256i toInteger(__m256d d)
{
    return _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(d, _mm256_set1_pd(kMagic))),
                            _mm256_set1_epi64x(kMagicBits));
}

// The 32-bit words at four addresses.
__m128i loadEach(__m256i addresses)
{
    const __m128i a = _mm256_castsi256_si128(addresses);
    const __m128i b = _mm256_extracti128_si256(addresses, 1);
    auto word = [](std::int64_t address) {
        std::uint32_t w = 0;
        std::memcpy(&w, pointer(static_cast<std::uint64_t>(address)), sizeof w);
        return static_cast<int>(w);
    };
    return _mm_setr_epi32(word(_mm_cvtsi128_si64(a)), word(_mm_extract_epi64(a, 1)), word(_mm_cvtsi128_si64(b)),
                          word(_mm_extract_epi64(b, 1)));
}

// The 4 coded bytes from `at`, big-endian, zeros past the end.
__m256i input(const Group& g, const GroupState& s)
{
    const __m256i last4 = loadLanes(s.last4);
    const __m256i from = _mm256_blendv_epi8(g.at, last4, _mm256_cmpgt_epi64(g.at, last4));
    const __m256i past = _mm256_slli_epi64(_mm256_sub_epi64(g.at, from), 3);
    __m128i raw = loadEach(from);
    raw = _mm_shuffle_epi8(raw, _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
    return _mm256_and_si256(_mm256_sllv_epi64(_mm256_cvtepu32_epi64(raw), past), _mm256_set1_epi64x(0xffffffff));
}

// One symbol of each of the register's four blocks; returns the symbols, one per 64-bit lane.
// The lookup entries of the four lanes' q (int32 each).
__m256i entries(const GroupState& s, __m128i q)
{
    return _mm256_cvtepu32_epi64(_mm_setr_epi32(
        static_cast<int>(s.table[0][_mm_cvtsi128_si32(q)]), static_cast<int>(s.table[1][_mm_extract_epi32(q, 1)]),
        static_cast<int>(s.table[2][_mm_extract_epi32(q, 2)]), static_cast<int>(s.table[3][_mm_extract_epi32(q, 3)])));
}

__attribute__((always_inline)) inline __m256i step(Group& g, const GroupState& s)
{
    const __m256i mask32 = _mm256_set1_epi64x(0xffffffff);
    const __m256i range = g.range;
    // Renormalise: shift in a byte while range <= 2^23, up to three.
    const __m256i negSteps = _mm256_add_epi64(_mm256_add_epi64(_mm256_cmpgt_epi64(_mm256_set1_epi64x(0x800001), range),
                                                               _mm256_cmpgt_epi64(_mm256_set1_epi64x(0x8001), range)),
                                              _mm256_cmpgt_epi64(_mm256_set1_epi64x(0x81), range));
    const __m256i steps = _mm256_sub_epi64(_mm256_setzero_si256(), negSteps);
    const __m256i shift = _mm256_slli_epi64(steps, 3);
    const __m256i bits =
        _mm256_srlv_epi64(_mm256_and_si256(_mm256_srli_epi64(input(g, s), 1), _mm256_set1_epi64x(0xffffff)),
                          _mm256_sub_epi64(_mm256_set1_epi64x(24), shift));
    const __m256i low = _mm256_or_si256(_mm256_and_si256(_mm256_sllv_epi64(g.low, shift), mask32), bits);
    const __m256i wide = _mm256_sllv_epi64(range, shift);
    g.at = _mm256_add_epi64(g.at, steps);
    // perCount = range / total; q = min(low / perCount, total - 1), truncated (the minimum of the floor is the
    // floor of the minimum: total - 1 is an integer).
    const __m256d perCountD = _mm256_floor_pd(_mm256_mul_pd(toDouble(wide), _mm256_load_pd(s.byTotal)));
    const __m256d qD = _mm256_min_pd(_mm256_div_pd(toDouble(low), perCountD), _mm256_load_pd(s.totalMinus1));
    const __m256i perCount = toInteger(perCountD);
    const __m256i entry = entries(s, _mm256_cvttpd_epi32(qD));
    const __m256i symbol = _mm256_and_si256(entry, _mm256_set1_epi64x(0xff));
    const __m256i below = _mm256_mul_epu32(perCount, _mm256_srli_epi64(entry, 16));
    g.low = _mm256_and_si256(_mm256_sub_epi64(low, below), mask32);
    const __m256i counted =
        _mm256_mul_epu32(perCount, _mm256_and_si256(_mm256_srli_epi64(entry, 8), _mm256_set1_epi64x(0xff)));
    g.range = _mm256_blendv_epi8(counted, _mm256_sub_epi64(wide, below),
                                 _mm256_cmpeq_epi64(symbol, _mm256_set1_epi64x(0xff)));
    return symbol;
}

// Eight symbols of each lane (the first in the lowest byte) to where the lane's symbols go, from symbol `i`.
void storeSymbols(__m256i eight, std::uint8_t* const* out, std::uint32_t i)
{
    const __m128i a = _mm256_castsi256_si128(eight);
    const __m128i b = _mm256_extracti128_si256(eight, 1);
    const std::int64_t words[4] = {_mm_cvtsi128_si64(a), _mm_extract_epi64(a, 1), _mm_cvtsi128_si64(b),
                                   _mm_extract_epi64(b, 1)};
    for (int k = 0; k < 4; ++k) std::memcpy(out[k] + i, &words[k], sizeof words[k]);
}

// 1 / total rounded up: the next double above the rounded quotient (1 exactly for 1).
double byTotal(std::uint32_t total)
{
    if (total == 1) return 1.0;
    const double q = 1.0 / static_cast<double>(total);
    std::uint64_t bits = 0;
    std::memcpy(&bits, &q, sizeof bits);
    ++bits;
    double up = 0.0;
    std::memcpy(&up, &bits, sizeof up);
    return up;
}

// The lanes of all registers: which block each runs, where its next symbols go, and how many it has left.
class Lanes {
public:
    Lanes(RedSymbolLane* blocks, std::size_t count) : m_blocks(blocks), m_count(count)
    {
        for (int l = 0; l < kLanes; ++l) makeIdle(l);
    }

    // At a chunk boundary: ends finished blocks, starts waiting ones. Returns how many blocks run.
    int refill()
    {
        int running = 0;
        for (int l = 0; l < kLanes; ++l) {
            if (m_running[l] && m_left[l] <= 0) {
                m_running[l]->done = m_running[l]->count;
                m_running[l] = nullptr;
            }
            if (!m_running[l]) startNext(l);
            running += m_running[l] != nullptr;
        }
        return running;
    }

    // Saves the running blocks' states for the scalar code.
    void handOver()
    {
        for (int l = 0; l < kLanes; ++l) {
            RedSymbolLane* b = m_running[l];
            if (!b) continue;
            const GroupState& s = m_state[l / 4];
            b->low = static_cast<std::uint32_t>(s.low[l % 4]);
            b->range = static_cast<std::uint32_t>(s.range[l % 4]);
            b->at = pointer(s.at[l % 4]);
            b->done = b->count - static_cast<std::uint32_t>(m_left[l]);
        }
    }

    void advance()
    {
        for (int l = 0; l < kLanes; ++l) {
            m_out[l] = m_running[l] ? m_out[l] + kChunk : m_sink;
            m_left[l] -= kChunk;
        }
    }

    bool waiting() const { return m_next < m_count; }
    GroupState& state(int g) { return m_state[g]; }
    std::uint8_t* const* out(int g) const { return m_out + std::ptrdiff_t{4} * g; }

private:
    void startNext(int l)
    {
        while (m_next < m_count) {
            RedSymbolLane& b = m_blocks[m_next++];
            if (b.done >= b.count || b.end - b.at < 4) continue; // nothing to do, or too short: the scalar code's
            GroupState& s = m_state[l / 4];
            const int k = l % 4;
            s.low[k] = b.low;
            s.range[k] = b.range;
            s.at[k] = address(b.at);
            s.last4[k] = address(b.end - 4);
            s.table[k] = b.lookup;
            s.totalMinus1[k] = static_cast<double>(b.total - 1);
            s.byTotal[k] = byTotal(b.total);
            m_running[l] = &b;
            m_out[l] = b.symbols + b.done;
            m_left[l] = static_cast<std::int64_t>(b.count - b.done);
            return;
        }
        makeIdle(l);
    }

    void makeIdle(int l)
    {
        GroupState& s = m_state[l / 4];
        const int k = l % 4;
        s.low[k] = 0;
        s.range[k] = 0x80000000u;
        s.at[k] = s.last4[k] = address(kIdleInput);
        s.table[k] = kIdleTable;
        s.totalMinus1[k] = 0.0;
        s.byTotal[k] = 1.0;
        m_running[l] = nullptr;
        m_out[l] = m_sink;
        m_left[l] = 0;
    }

    RedSymbolLane* m_blocks;
    std::size_t m_count;
    std::size_t m_next = 0;
    GroupState m_state[kGroups];
    RedSymbolLane* m_running[kLanes] = {};
    std::uint8_t* m_out[kLanes] = {};
    std::int64_t m_left[kLanes] = {};
    std::uint8_t m_sink[kChunk] = {};
};

} // namespace

void decodeRedSymbols(RedSymbolLane* blocks, std::size_t count, std::size_t stopBelow)
{
    Lanes lanes(blocks, count);
    for (;;) {
        const int running = lanes.refill();
        if (running == 0) return;
        if (!lanes.waiting() && static_cast<std::size_t>(running) < stopBelow) {
            lanes.handOver();
            return;
        }
        Group g[kGroups];
        for (int k = 0; k < kGroups; ++k) g[k] = load(lanes.state(k));
        for (std::uint32_t i = 0; i < kChunk; i += 8) {
            __m256i eight[kGroups];
            for (int k = 0; k < kGroups; ++k) eight[k] = _mm256_setzero_si256();
            for (int j = 0; j < 8; ++j)
                for (int k = 0; k < kGroups; ++k)
                    eight[k] = _mm256_or_si256(_mm256_srli_epi64(eight[k], 8),
                                               _mm256_slli_epi64(step(g[k], lanes.state(k)), 56));
            for (int k = 0; k < kGroups; ++k) storeSymbols(eight[k], lanes.out(k), i);
        }
        for (int k = 0; k < kGroups; ++k) store(g[k], lanes.state(k));
        lanes.advance();
    }
}

} // namespace lv::formats::mef3::avx2
