// RED block decoding: the range decoder of meflib's RED_decode, bit-exact, with table symbol lookup.
#include "formats/mef3/RedBlock.h"

#include "core/LittleEndian.h"
#include "core/TimeFormat.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/RedSymbols.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lv::formats::mef3 {

namespace le = core::le;

namespace {

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

// Whether any of the 8 bytes of `w` is 0x80 (a key-sample flag).
bool holdsKeyFlag(std::uint64_t w)
{
    const std::uint64_t x = w ^ 0x8080808080808080ull;
    return ((x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull) != 0;
}

// Writes current plus the running sums of the 8 signed byte differences in `w` (the first in its lowest byte) to
// out[0..8), wrapping as meflib's 32-bit arithmetic does; returns the last.
std::uint32_t addDifferences(std::uint64_t w, std::uint32_t current, std::int32_t* out)
{
#if defined(__SSE2__)
    const __m128i bytes = _mm_cvtsi64_si128(static_cast<long long>(w));
    __m128i sums = _mm_srai_epi16(_mm_unpacklo_epi8(bytes, bytes), 8); // 8 x int16: a sum of 8 stays within 1,016
    sums = _mm_add_epi16(sums, _mm_slli_si128(sums, 2));
    sums = _mm_add_epi16(sums, _mm_slli_si128(sums, 4));
    sums = _mm_add_epi16(sums, _mm_slli_si128(sums, 8));
    const __m128i base = _mm_set1_epi32(static_cast<int>(current));
    const __m128i low = _mm_add_epi32(base, _mm_srai_epi32(_mm_unpacklo_epi16(sums, sums), 16));
    const __m128i high = _mm_add_epi32(base, _mm_srai_epi32(_mm_unpackhi_epi16(sums, sums), 16));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), low);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 4), high);
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(_mm_shuffle_epi32(high, 0xFF)));
#else
    for (int j = 0; j < 8; ++j) {
        current += static_cast<std::uint32_t>(static_cast<std::int8_t>(w >> (8 * j)));
        out[j] = static_cast<std::int32_t>(current);
    }
    return current;
#endif
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
    while (i < n && p < end) {
        // Eight differences without a key sample: added in a row, with no branch on each symbol.
        if (n - i >= 8 && end - p >= 8) {
            const std::uint64_t w = core::le::load<std::uint64_t>(p);
            if (!holdsKeyFlag(w)) {
                current = addDifferences(w, current, out + i);
                p += 8;
                i += 8;
                continue;
            }
        }
        const bool key = *p == 0x80u;
        const std::uint32_t difference =
            static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int8_t>(*p)));
        const std::uint32_t keyValue = core::le::load<std::uint32_t>(p + 1);
        current = key ? keyValue : current + difference;
        p += key ? 5 : 1;
        out[i++] = static_cast<std::int32_t>(current);
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

std::uint32_t redStatisticsTotal(const RedBlockHeader& header)
{
    std::uint32_t total = 0;
    for (std::uint8_t c : header.statistics) total += c;
    return total;
}

std::uint32_t redSymbolCount(const RedBlockHeader& header)
{
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(header.differenceBytes, 5ull * header.sampleCount));
}

bool redCrcOk(const RedBlockHeader& header, std::span<const std::uint8_t> block)
{
    if (header.blockBytes < 4 || header.blockBytes > block.size()) return false;
    return crc32(block.subspan(4, header.blockBytes - 4)) == header.crc;
}

namespace {

// A wave's blocks set up for decoding: their lookup tables and symbols in per-thread buffers that live until the
// wave is decoded.
struct Wave {
    std::vector<RedLookupEntry> tables;
    std::vector<std::uint8_t> symbols;
    std::vector<RedSymbolLane> lanes;
    std::vector<RedTask*> tasks; // the task of each lane
};

// A wave ends at 64 blocks, or at a multiple of 8 (the AVX2 kernel's lanes: blocks of one length then fill them
// all) once its tables pass 64 KiB, so that they stay in the L2 while its blocks decode: a 1 uV/count 10 s
// block's table is 10 KiB, and 64 of them filled before the first decodes were 1.08-1.17x slower.
constexpr std::size_t kWaveBlocks = 64;
constexpr std::size_t kWaveRound = 8;
constexpr std::size_t kWaveTableEntries = 16384;

// Where a block's table and symbols will go in the wave's buffers, once its header is checked.
struct Placement {
    std::uint32_t total = 0;
    std::uint32_t count = 0; // symbols to decode
    std::size_t table = 0;
    std::size_t symbols = 0;
};

core::Status place(const RedTask& task, Placement& p)
{
    const RedBlockHeader& h = task.header;
    const std::uint32_t n = h.sampleCount;
    if (task.out.size() < n) return corrupt("RED block holds more samples than its index announces");
    if (h.blockBytes < kRedHeaderBytes || h.blockBytes > task.block.size())
        return corrupt("RED block size " + std::to_string(h.blockBytes) + " is impossible");
    p.total = redStatisticsTotal(h);
    if (p.total == 0) return corrupt("RED block statistics are all zero");
    p.count = redSymbolCount(h);
    return {};
}

core::Status finish(const RedSymbolLane& lane, RedTask& task)
{
    const RedBlockHeader& h = task.header;
    const std::uint32_t n = h.sampleCount;
    std::fill_n(lane.symbols + lane.count, 8, std::uint8_t{0}); // a kernel may have written past the end
    const std::uint32_t made = makeSamples(lane.symbols, lane.count, n, task.out.data());
    if (made < n)
        return corrupt("RED block decodes to " + std::to_string(made) + " of its " + std::to_string(n) + " samples");
    const std::span<std::int32_t> samples = task.out.first(n);
    if (h.scaleFactor > 1.0f) unscale(h.scaleFactor, samples);
    if (h.detrendSlope != 0.0f || h.detrendIntercept != 0.0f) retrend(h.detrendSlope, h.detrendIntercept, samples);
    return {};
}

// Decodes tasks [first, end) as one wave, or fewer; returns where the next wave starts.
std::size_t decodeWave(std::span<RedTask> tasks, std::size_t first, core::SimdLevel level)
{
    thread_local Wave wave;
    thread_local std::vector<Placement> placed;
    wave.lanes.clear();
    wave.tasks.clear();
    placed.clear();
    std::size_t tableEntries = 0, symbolBytes = 0, next = first;
    for (; next < tasks.size() && wave.lanes.size() < kWaveBlocks; ++next) {
        RedTask& task = tasks[next];
        Placement p;
        task.status = task.header.sampleCount == 0 ? core::Status{} : place(task, p);
        if (!task.status.ok() || task.header.sampleCount == 0) continue;
        if (!placed.empty() && placed.size() % kWaveRound == 0 && tableEntries + p.total > kWaveTableEntries) break;
        p.table = tableEntries;
        p.symbols = symbolBytes;
        tableEntries += p.total + kRedLookupSlack;
        symbolBytes += p.count + kRedSymbolSlack;
        placed.push_back(p);
        __builtin_prefetch(task.block.data() + kRedHeaderBytes); // its first coded bytes, read after the tables
        wave.tasks.push_back(&task);
        wave.lanes.emplace_back();
    }
    wave.tables.resize(std::max(wave.tables.size(), tableEntries));
    wave.symbols.resize(std::max(wave.symbols.size(), symbolBytes));
    for (std::size_t k = 0; k < placed.size(); ++k) {
        const RedTask& task = *wave.tasks[k];
        const Placement& p = placed[k];
        fillRedLookup(task.header.statistics, wave.tables.data() + p.table);
        wave.lanes[k] =
            startRedSymbolLane(wave.tables.data() + p.table, p.total, task.block.data() + kRedHeaderBytes,
                               task.block.data() + task.header.blockBytes, wave.symbols.data() + p.symbols, p.count);
    }
    decodeRedSymbols(wave.lanes, level);
    for (std::size_t k = 0; k < placed.size(); ++k) wave.tasks[k]->status = finish(wave.lanes[k], *wave.tasks[k]);
    return next;
}

core::SimdLevel chosenLevel()
{
    static const core::SimdLevel level = core::bestSimdLevel();
    return level;
}

} // namespace

void decodeRedBatch(std::span<RedTask> tasks) { decodeRedBatch(tasks, chosenLevel()); }

void decodeRedBatch(std::span<RedTask> tasks, core::SimdLevel level)
{
    for (std::size_t first = 0; first < tasks.size();) first = decodeWave(tasks, first, level);
}

core::Status decodeRed(const RedBlockHeader& h, std::span<const std::uint8_t> block, std::span<std::int32_t> out)
{
    RedTask task{h, block, out, {}};
    decodeRedBatch(std::span(&task, 1));
    return task.status;
}

} // namespace lv::formats::mef3
