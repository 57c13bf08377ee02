// RED block decoding: the range decoder of meflib's RED_decode, bit-exact, with table symbol lookup.
#include "formats/mef3/RedBlock.h"

#include "core/LittleEndian.h"
#include "core/TimeFormat.h"
#include "formats/mef3/Crc32.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

namespace lv::formats::mef3 {

namespace le = core::le;

namespace {

constexpr std::uint32_t kBottomValue = 0x800000u;
constexpr int kExtraBits = 7;
constexpr std::int32_t kPositiveInfinity = 0x7FFFFFFF;
constexpr std::int32_t kNegativeInfinity = static_cast<std::int32_t>(0x80000001u);
constexpr std::int32_t kRedNan = static_cast<std::int32_t>(0x80000000u);

core::Error corrupt(std::string message) { return core::makeError(core::ErrorCode::Corrupt, std::move(message)); }

// meflib's RED_round: round half away from zero, saturating at the RED infinities.
std::int32_t redRound(double value)
{
    if (std::isnan(value)) return kRedNan; // what meflib's cast yields on x86; in C++ the cast is undefined
    if (value >= 0.0) {
        if ((value += 0.5) >= static_cast<double>(kPositiveInfinity)) return kPositiveInfinity;
    } else if ((value -= 0.5) <= static_cast<double>(kNegativeInfinity)) {
        return kNegativeInfinity;
    }
    return static_cast<std::int32_t>(value);
}

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

// The coded bytes as meflib's decoder sees them: a bit stream read MSB first, zeros past the block's end.
// Renormalising by n bytes appends the next 8n bits to `low`; `at` is the byte holding the next bit but one
// (meflib keeps that byte in `in_byte`, whose lowest bit is the next bit).
struct BitInput {
    const std::uint8_t* at;
    const std::uint8_t* end;

    // The 64 bits starting at `at`, big-endian, zero past the end.
    std::uint64_t window() const
    {
        if (end - at >= 8) return __builtin_bswap64(core::le::load<std::uint64_t>(at));
        std::uint64_t w = 0;
        for (int i = 0; i < 8; ++i) w = (w << 8) | (at + i < end ? at[i] : 0u);
        return w;
    }
};

// Packed per-block lookup entry for cumulative count c: (cum[s] << 16) | (count[s] << 8) | s.
using LookupEntry = std::uint32_t;

// Pass 1: the range decoder proper, one symbol per step, with no data-dependent branch except the rare
// end-of-input case in BitInput::window. Its steps form one long dependency chain, so decodeRedBatch runs
// two streams side by side to keep the core busy.
class SymbolStream {
public:
    SymbolStream(const LookupEntry* lookup, std::uint32_t total, BitInput in, std::uint8_t* symbols)
        : m_lookup(lookup)
        , m_total(total)
        , m_byTotal(total)
        , m_in(in)
        , m_symbols(symbols)
        , m_low(in.at < in.end ? *in.at >> (8 - kExtraBits) : 0u)
    {}

    void step(std::uint32_t i)
    {
        const unsigned steps =
            (m_range <= kBottomValue) + (m_range <= (kBottomValue >> 8)) + (m_range <= (kBottomValue >> 16));
        const std::uint64_t bits = ((m_in.window() << kExtraBits) >> 40) >> (24 - 8 * steps);
        m_low = static_cast<std::uint32_t>((static_cast<std::uint64_t>(m_low) << (8 * steps)) | bits);
        m_range <<= 8 * steps;
        m_in.at += steps;
        const std::uint32_t perCount = m_byTotal.divide(m_range);
        const std::uint32_t q = m_low / perCount;
        const LookupEntry e = m_lookup[q >= m_total ? m_total - 1 : q];
        const std::uint32_t symbol = e & 0xffu;
        const std::uint32_t below = perCount * (e >> 16);
        m_low -= below;
        m_range = symbol == 255 ? m_range - below : perCount * ((e >> 8) & 0xffu);
        m_symbols[i] = static_cast<std::uint8_t>(symbol);
    }

private:
    const LookupEntry* m_lookup;
    std::uint32_t m_total;
    ConstantDivisor m_byTotal;
    BitInput m_in;
    std::uint8_t* m_symbols;
    std::uint32_t m_low;
    std::uint32_t m_range = 1u << kExtraBits;
};

// Runs the streams' steps interleaved while all have symbols left, then each to its end.
template <std::size_t K>
void decodeSymbols(std::array<SymbolStream*, K> streams, std::array<std::uint32_t, K> counts)
{
    const std::uint32_t common = *std::min_element(counts.begin(), counts.end());
    for (std::uint32_t i = 0; i < common; ++i)
        for (std::size_t k = 0; k < K; ++k) streams[k]->step(i);
    for (std::size_t k = 0; k < K; ++k)
        for (std::uint32_t j = common; j < counts[k]; ++j) streams[k]->step(j);
}

// Pass 2: symbols to samples. The stream opens with a 4-byte key sample (its 0x80 flag is implicit); then
// each symbol is a signed difference, or 0x80 followed by a 4-byte little-endian key sample. Branch-free
// step; `symbols` has 8 readable bytes past `count`. Returns the number of samples made.
std::uint32_t makeSamples(const std::uint8_t* symbols, std::uint32_t count, std::uint32_t n, std::int32_t* out)
{
    if (count < 4) return 0;
    const std::uint8_t* p = symbols + 4;
    const std::uint8_t* end = symbols + count;
    std::uint32_t current = core::le::load<std::uint32_t>(symbols);
    out[0] = static_cast<std::int32_t>(current);
    std::uint32_t i = 1;
    for (; i < n && p < end; ++i) {
        const bool key = *p == 0x80u;
        const std::uint32_t difference =
            static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int8_t>(*p)));
        const std::uint32_t keyValue = core::le::load<std::uint32_t>(p + 1);
        current = key ? keyValue : current + difference;
        p += key ? 5 : 1;
        out[i] = static_cast<std::int32_t>(current);
    }
    return p > end ? i - 1 : i; // a key sample cut off by the end of the stream does not count
}

void unscale(float scaleFactor, std::span<std::int32_t> samples)
{
    const double sf = scaleFactor;
    for (std::int32_t& v : samples) v = redRound(static_cast<double>(v) * sf);
}

void retrend(float slope, float intercept, std::span<std::int32_t> samples)
{
    const double m = slope, b = intercept;
    double c = 0.0;
    for (std::int32_t& v : samples) {
        c += 1.0;
        v = redRound(static_cast<double>(v) + m * c + b);
    }
}

} // namespace

RedBlockHeader parseRedHeader(std::span<const std::uint8_t> block)
{
    RedBlockHeader h;
    h.crc = le::u32(block, 0);
    h.flags = le::u8(block, 4);
    h.detrendSlope = le::f32(block, 16);
    h.detrendIntercept = le::f32(block, 20);
    h.scaleFactor = le::f32(block, 24);
    h.differenceBytes = le::u32(block, 28);
    h.sampleCount = le::u32(block, 32);
    h.blockBytes = le::u32(block, 36);
    h.startTime = le::i64(block, 40);
    std::memcpy(h.statistics.data(), block.data() + kRedStatisticsOffset, h.statistics.size());
    return h;
}

core::Status checkRedHeaderValues(const RedBlockHeader& h)
{
    constexpr std::uint8_t kKnownFlags = kRedDiscontinuity | kRedLevel1Encryption | kRedLevel2Encryption;
    char flags[8];
    std::snprintf(flags, sizeof flags, "0x%02x", h.flags);
    if ((h.flags & ~kKnownFlags) != 0)
        return corrupt(std::string("flags ") + flags + " hold bits MEF 3.0 does not define");
    if ((h.flags & kRedLevel1Encryption) && (h.flags & kRedLevel2Encryption))
        return corrupt(std::string("flags ") + flags + " mark both encryption levels");
    if (!std::isfinite(h.scaleFactor) || h.scaleFactor > static_cast<float>(kPositiveInfinity))
        return corrupt("scale factor " + core::formatNumber(h.scaleFactor) + " is not finite or over 2^31");
    if (!std::isfinite(h.detrendSlope) || !std::isfinite(h.detrendIntercept))
        return corrupt("detrend slope " + core::formatNumber(h.detrendSlope) + " or intercept " +
                       core::formatNumber(h.detrendIntercept) + " is not finite");
    return {};
}

bool redCrcOk(const RedBlockHeader& header, std::span<const std::uint8_t> block)
{
    if (header.blockBytes < 4 || header.blockBytes > block.size()) return false;
    return crc32(block.subspan(4, header.blockBytes - 4)) == header.crc;
}

namespace {

// Per-thread buffers of one decoding slot (two slots: two blocks decode side by side).
struct Slot {
    std::vector<LookupEntry> lookup;
    std::vector<std::uint8_t> symbols;
};

// A block checked and set up for decoding: its lookup table and symbol buffer live in `slot`.
struct Prepared {
    RedTask* task = nullptr;
    std::optional<SymbolStream> stream;
    std::uint32_t count = 0; // symbols to decode
    Slot* slot = nullptr;
};

core::Status prepare(RedTask& task, Slot& slot, Prepared& p)
{
    const RedBlockHeader& h = task.header;
    p.task = &task;
    p.slot = &slot;
    const std::uint32_t n = h.sampleCount;
    if (n == 0) return {};
    if (task.out.size() < n) return corrupt("RED block holds more samples than its index announces");
    if (h.blockBytes < kRedHeaderBytes || h.blockBytes > task.block.size())
        return corrupt("RED block size " + std::to_string(h.blockBytes) + " is impossible");
    std::uint32_t cum[257];
    cum[0] = 0;
    for (int s = 0; s < 256; ++s) cum[s + 1] = cum[s] + h.statistics[s];
    const std::uint32_t total = cum[256];
    if (total == 0) return corrupt("RED block statistics are all zero");
    slot.lookup.resize(total);
    for (std::uint32_t s = 0; s < 256; ++s)
        if (h.statistics[s])
            std::fill_n(slot.lookup.data() + cum[s], h.statistics[s],
                        (cum[s] << 16) | (std::uint32_t{h.statistics[s]} << 8) | s);
    // A sample takes at most 5 symbols; symbols past that cannot change the output.
    p.count = static_cast<std::uint32_t>(std::min<std::uint64_t>(h.differenceBytes, 5ull * n));
    slot.symbols.resize(p.count + 8);
    std::fill_n(slot.symbols.data() + p.count, 8, std::uint8_t{0});
    p.stream.emplace(slot.lookup.data(), total,
                     BitInput{task.block.data() + kRedHeaderBytes, task.block.data() + h.blockBytes},
                     slot.symbols.data());
    return {};
}

core::Status finish(const Prepared& p)
{
    const RedBlockHeader& h = p.task->header;
    const std::uint32_t n = h.sampleCount;
    if (n == 0) return {};
    const std::uint32_t made = makeSamples(p.slot->symbols.data(), p.count, n, p.task->out.data());
    if (made < n)
        return corrupt("RED block decodes to " + std::to_string(made) + " of its " + std::to_string(n) + " samples");
    const std::span<std::int32_t> samples = p.task->out.first(n);
    if (h.scaleFactor > 1.0f) unscale(h.scaleFactor, samples);
    if (h.detrendSlope != 0.0f || h.detrendIntercept != 0.0f) retrend(h.detrendSlope, h.detrendIntercept, samples);
    return {};
}

} // namespace

void decodeRedBatch(std::span<RedTask> tasks)
{
    constexpr std::size_t kLanes = 2; // 3 and 4 measured no faster here, and leave less for a second thread
    thread_local Slot slots[kLanes];
    for (std::size_t i = 0; i < tasks.size(); i += kLanes) {
        std::array<Prepared, kLanes> prepared;
        std::array<SymbolStream*, kLanes> running{};
        std::array<std::uint32_t, kLanes> counts{};
        std::size_t lanes = 0;
        for (std::size_t k = 0; k < kLanes && i + k < tasks.size(); ++k) {
            tasks[i + k].status = prepare(tasks[i + k], slots[k], prepared[k]);
            if (tasks[i + k].status.ok() && prepared[k].stream) {
                running[lanes] = &*prepared[k].stream;
                counts[lanes++] = prepared[k].count;
            }
        }
        if (lanes == kLanes) {
            decodeSymbols<kLanes>(running, counts);
        } else {
            for (std::size_t k = 0; k < lanes; ++k) decodeSymbols<1>({running[k]}, {counts[k]});
        }
        for (std::size_t k = 0; k < kLanes && i + k < tasks.size(); ++k)
            if (tasks[i + k].status.ok() && prepared[k].stream) tasks[i + k].status = finish(prepared[k]);
    }
}

core::Status decodeRed(const RedBlockHeader& h, std::span<const std::uint8_t> block, std::span<std::int32_t> out)
{
    RedTask task{h, block, out, {}};
    decodeRedBatch(std::span(&task, 1));
    return task.status;
}

} // namespace lv::formats::mef3
