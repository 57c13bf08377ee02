// RED block decoding: the range decoder of meflib's RED_decode, bit-exact, with table symbol lookup.
#include "formats/mef3/RedBlock.h"

#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"

#include <cmath>
#include <cstring>
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

// Byte input of the range decoder: past the block's end it yields zeros, as meflib does.
struct ByteInput {
    const std::uint8_t* p;
    const std::uint8_t* end;
    std::uint32_t next() { return p < end ? *p++ : 0u; }
};

// Turns decoded difference symbols into samples: 0x80 starts a 4-byte little-endian key sample.
struct SampleSink {
    std::int32_t* out;
    std::uint32_t emitted = 0;
    std::uint32_t current = 0;
    std::uint32_t key = 0;
    int keyBytesLeft = 4; // the block opens with an implicit key-sample flag

    void push(std::uint32_t symbol)
    {
        if (keyBytesLeft > 0) {
            key |= symbol << (8 * (4 - keyBytesLeft));
            if (--keyBytesLeft == 0) emit(key);
        } else if (symbol == 0x80u) {
            keyBytesLeft = 4;
            key = 0;
        } else {
            emit(current + static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int8_t>(symbol))));
        }
    }
    void emit(std::uint32_t value)
    {
        current = value;
        out[emitted++] = static_cast<std::int32_t>(value);
    }
};

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

bool redCrcOk(const RedBlockHeader& header, std::span<const std::uint8_t> block)
{
    if (header.blockBytes < 4 || header.blockBytes > block.size()) return false;
    return crc32(block.subspan(4, header.blockBytes - 4)) == header.crc;
}

core::Status decodeRed(const RedBlockHeader& h, std::span<const std::uint8_t> block, std::span<std::int32_t> out)
{
    const std::uint32_t n = h.sampleCount;
    if (n == 0) return {};
    if (out.size() < n) return corrupt("RED block holds more samples than its index announces");
    if (h.blockBytes < kRedHeaderBytes || h.blockBytes > block.size())
        return corrupt("RED block size " + std::to_string(h.blockBytes) + " is impossible");

    std::uint32_t cum[257];
    cum[0] = 0;
    for (int s = 0; s < 256; ++s) cum[s + 1] = cum[s] + h.statistics[s];
    const std::uint32_t total = cum[256];
    if (total == 0) return corrupt("RED block statistics are all zero");

    thread_local std::vector<std::uint8_t> lookup;
    lookup.resize(total);
    for (int s = 0; s < 256; ++s)
        if (h.statistics[s]) std::memset(lookup.data() + cum[s], s, h.statistics[s]);

    const ConstantDivisor byTotal(total);
    ByteInput in{block.data() + kRedHeaderBytes, block.data() + h.blockBytes};
    std::uint32_t inByte = in.next();
    std::uint32_t low = inByte >> (8 - kExtraBits);
    std::uint32_t range = 1u << kExtraBits;
    SampleSink sink{out.data()};

    for (std::uint32_t i = 0; i < h.differenceBytes && sink.emitted < n; ++i) {
        while (range <= kBottomValue) {
            low = (low << 8) | ((inByte << kExtraBits) & 0xffu);
            inByte = in.next();
            low |= inByte >> (8 - kExtraBits);
            range <<= 8;
        }
        const std::uint32_t perCount = byTotal.divide(range);
        const std::uint32_t q = low / perCount;
        const std::uint32_t symbol = lookup[q >= total ? total - 1 : q];
        const std::uint32_t below = perCount * cum[symbol];
        low -= below;
        range = symbol < 255 ? perCount * h.statistics[symbol] : range - below;
        sink.push(symbol);
    }
    if (sink.emitted < n)
        return corrupt("RED block decodes to " + std::to_string(sink.emitted) + " of its " + std::to_string(n) +
                       " samples");

    const std::span<std::int32_t> samples = out.first(n);
    if (h.scaleFactor > 1.0f) unscale(h.scaleFactor, samples);
    if (h.detrendSlope != 0.0f || h.detrendIntercept != 0.0f) retrend(h.detrendSlope, h.detrendIntercept, samples);
    return {};
}

} // namespace lv::formats::mef3
