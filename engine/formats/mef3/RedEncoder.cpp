// RED encoding: byte differences with key samples, 8-bit scaled statistics, and a carry-propagating range coder.
#include "formats/mef3/RedEncoder.h"

#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/RedBlock.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>

namespace lv::formats::mef3 {

namespace {

constexpr std::uint32_t kTopValue = 0x80000000u;
constexpr std::uint32_t kBottomValue = 0x800000u;
constexpr std::uint32_t kCarryCheck = 0x7F800000u;
constexpr int kShiftBits = 23;
constexpr std::uint8_t kKeySampleFlag = 0x80;
constexpr std::uint8_t kPadByte = 0x7E;
constexpr std::int32_t kRedNan = INT32_MIN;

// Output side of the range coder: one byte waits in `pending` (a later carry may still increment it),
// followed by `held` bytes of 0xFF that would all turn to 0x00 on a carry. Writes through a pointer into a
// buffer sized for the worst case.
class CarryWriter {
public:
    explicit CarryWriter(std::uint8_t* out) : m_out(out) {}

    void release(bool carry)
    {
        *m_out++ = static_cast<std::uint8_t>(m_pending + (carry ? 1 : 0));
        if (m_held == 0) return; // the usual case
        std::memset(m_out, carry ? 0x00 : 0xFF, m_held);
        m_out += m_held;
        m_held = 0;
    }
    void setPending(std::uint32_t low) { m_pending = static_cast<std::uint8_t>(low >> kShiftBits); }
    void hold() { ++m_held; }
    void put(std::uint8_t byte) { *m_out++ = byte; }
    std::uint8_t* end() const { return m_out; }

private:
    std::uint8_t* m_out;
    std::uint8_t m_pending = 0;
    std::uint32_t m_held = 0;
};

// Shifts settled top bytes of `low` out until `range` is wide enough again.
inline void normalize(std::uint32_t& low, std::uint32_t& range, CarryWriter& writer)
{
    while (range <= kBottomValue) {
        if (low < kCarryCheck) {
            writer.release(false);
            writer.setPending(low);
        } else if (low & kTopValue) {
            writer.release(true);
            writer.setPending(low);
        } else {
            writer.hold(); // the top byte is 0xFF and may still carry
        }
        range <<= 8;
        low = (low << 8) & (kTopValue - 1);
    }
}

// Exact n / d for every 32-bit n by one multiplication (Lemire, Kaser and Kurz 2019: c = ceil(2^64 / d)).
class Divider {
public:
    explicit Divider(std::uint32_t d) : m_one(d == 1), m_c(d > 1 ? UINT64_MAX / d + 1 : 0) {}
    std::uint32_t divide(std::uint32_t n) const
    {
#ifdef __SIZEOF_INT128__
        return m_one ? n : static_cast<std::uint32_t>((static_cast<unsigned __int128>(m_c) * n) >> 64);
#else
        return m_one ? n : static_cast<std::uint32_t>(n / (UINT64_MAX / m_c + 1)); // portable, slower
#endif
    }

private:
    bool m_one;
    std::uint64_t m_c;
};

// RED NaN samples do not count as extrema; both stay RED NaN when every sample is NaN. Branch-free loops the
// compiler vectorises.
void extrema(std::span<const std::int32_t> samples, RedBlockSummary& summary)
{
    std::int32_t lo = INT32_MAX, hi = INT32_MIN;
    bool any = false;
    for (const std::int32_t v : samples) {
        lo = std::min(lo, v == kRedNan ? INT32_MAX : v);
        hi = std::max(hi, v);
        any |= v != kRedNan;
    }
    summary.minimum = any ? lo : kRedNan;
    summary.maximum = any ? hi : kRedNan;
}

} // namespace

std::span<const std::uint8_t> RedEncoder::differences() const { return {m_differences.data(), m_differenceCount}; }

void RedEncoder::makeDifferences(std::span<const std::int32_t> samples)
{
    if (m_differences.size() < samples.size() * 5) m_differences.resize(samples.size() * 5);
    std::uint8_t* out = m_differences.data();
    core::le::store(out, static_cast<std::uint32_t>(samples[0])); // the first key sample's flag is implicit
    out += 4;
    for (std::size_t i = 1; i < samples.size(); ++i) {
        const std::uint32_t diff = static_cast<std::uint32_t>(samples[i]) - static_cast<std::uint32_t>(samples[i - 1]);
        if (diff + 127u <= 254u) {
            *out++ = static_cast<std::uint8_t>(diff);
        } else {
            *out = kKeySampleFlag;
            core::le::store(out + 1, static_cast<std::uint32_t>(samples[i]));
            out += 5;
        }
    }
    m_differenceCount = static_cast<std::size_t>(out - m_differences.data());
}

void RedEncoder::makeStatistics(std::uint8_t* statistics)
{
    // Four histograms, so that runs of one symbol do not wait on their own increments.
    std::uint32_t lanes[4][256] = {};
    const std::span<const std::uint8_t> d = differences();
    std::size_t i = 0;
    for (; i + 4 <= d.size(); i += 4) {
        ++lanes[0][d[i]];
        ++lanes[1][d[i + 1]];
        ++lanes[2][d[i + 2]];
        ++lanes[3][d[i + 3]];
    }
    for (; i < d.size(); ++i) ++lanes[0][d[i]];
    std::uint32_t counts[256];
    for (int s = 0; s < 256; ++s) counts[s] = lanes[0][s] + lanes[1][s] + lanes[2][s] + lanes[3][s];
    const std::uint32_t maxCount = *std::max_element(std::begin(counts), std::end(counts));
    // meflib: ceil(count * 254.999999999 / maxCount) when maxCount > 255, else the count. With scale 1 the same
    // expression gives the count, and 0 stays 0; ceil as truncation plus one when a fraction remains, which
    // compiles to branch-free SSE2 instead of a libm call per symbol.
    const double scale = maxCount > 255 ? 254.999999999 / static_cast<double>(maxCount) : 1.0;
    for (int s = 0; s < 256; ++s) {
        const double scaled = counts[s] * scale;
        const auto whole = static_cast<std::uint32_t>(scaled);
        statistics[s] = static_cast<std::uint8_t>(whole + (scaled > whole ? 1 : 0)); // a used symbol gets >= 1
    }
}

void RedEncoder::rangeEncode(const std::uint8_t* statistics)
{
    std::uint32_t cumulative[257];
    cumulative[0] = 0;
    for (int s = 0; s < 256; ++s) cumulative[s + 1] = cumulative[s] + statistics[s];
    const Divider total(cumulative[256]);

    // At most two bytes a symbol (a used symbol has a statistic >= 1 of a total < 2^16), plus the flush.
    if (m_coded.size() < 2 * m_differenceCount + 16) m_coded.resize(2 * m_differenceCount + 16);
    CarryWriter writer(m_coded.data());
    std::uint32_t low = 0;
    std::uint32_t range = kTopValue;
    for (std::uint8_t symbol : differences()) {
        normalize(low, range, writer);
        const std::uint32_t perCount = total.divide(range);
        const std::uint32_t below = perCount * cumulative[symbol];
        low += below;
        range = symbol < 255 ? perCount * statistics[symbol] : range - below; // the last symbol takes the rest
    }
    normalize(low, range, writer);
    const std::uint32_t last = (low >> kShiftBits) + 1;
    writer.release(last > 0xFF);
    writer.put(static_cast<std::uint8_t>(last & 0xFF));
    writer.put(0);
    m_codedCount = static_cast<std::size_t>(writer.end() - m_coded.data());
}

RedBlockSummary RedEncoder::encode(std::span<const std::int32_t> samples, std::int64_t startTime, bool discontinuity,
                                   std::vector<std::uint8_t>& out)
{
    namespace le = lv::core::le;
    RedBlockSummary summary;
    const std::size_t at = out.size();
    out.resize(at + kRedHeaderBytes, 0);
    summary.flags = discontinuity ? kRedDiscontinuity : 0;
    if (samples.empty()) {
        summary.blockBytes = kRedHeaderBytes; // meflib's empty block: scale factor 0, no statistics
    } else {
        makeDifferences(samples);
        makeStatistics(out.data() + at + kRedStatisticsOffset);
        rangeEncode(out.data() + at + kRedStatisticsOffset);
        const std::size_t coded = m_codedCount - 1; // the coder's first byte is junk
        const std::size_t padded = (kRedHeaderBytes + coded + 7) / 8 * 8;
        out.resize(at + padded);
        std::memcpy(out.data() + at + kRedHeaderBytes, m_coded.data() + 1, coded);
        std::memset(out.data() + at + kRedHeaderBytes + coded, kPadByte, padded - kRedHeaderBytes - coded);
        summary.blockBytes = static_cast<std::uint32_t>(out.size() - at);
        summary.differenceBytes = static_cast<std::uint32_t>(m_differenceCount + 1);
        extrema(samples, summary);
    }

    std::uint8_t* h = out.data() + at;
    h[4] = summary.flags;
    le::store<float>(h + 16, 0.0f); // detrend slope
    le::store<float>(h + 20, 0.0f); // detrend intercept
    le::store<float>(h + 24, samples.empty() ? 0.0f : 1.0f);
    le::store<std::uint32_t>(h + 28, summary.differenceBytes);
    le::store<std::uint32_t>(h + 32, static_cast<std::uint32_t>(samples.size()));
    le::store<std::uint32_t>(h + 36, summary.blockBytes);
    le::store<std::int64_t>(h + 40, startTime);
    le::store<std::uint32_t>(h, crc32(std::span<const std::uint8_t>(h + 4, summary.blockBytes - 4)));
    return summary;
}

} // namespace lv::formats::mef3
