// RED encoding: byte differences with key samples, 8-bit scaled statistics, and a carry-propagating range coder.
#include "formats/mef3/RedEncoder.h"

#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/RedBlock.h"

#include <algorithm>
#include <climits>
#include <cmath>

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
// followed by `held` bytes of 0xFF that would all turn to 0x00 on a carry.
class CarryWriter {
public:
    explicit CarryWriter(std::vector<std::uint8_t>& out) : m_out(out) {}

    void release(bool carry)
    {
        m_out.push_back(static_cast<std::uint8_t>(m_pending + (carry ? 1 : 0)));
        m_out.insert(m_out.end(), m_held, carry ? 0x00 : 0xFF);
        m_held = 0;
    }
    void setPending(std::uint32_t low) { m_pending = static_cast<std::uint8_t>(low >> kShiftBits); }
    void hold() { ++m_held; }

private:
    std::vector<std::uint8_t>& m_out;
    std::uint8_t m_pending = 0;
    std::uint32_t m_held = 0;
};

// Shifts settled top bytes of `low` out until `range` is wide enough again.
void normalize(std::uint32_t& low, std::uint32_t& range, CarryWriter& writer)
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

void appendLittleEndian(std::vector<std::uint8_t>& out, std::int32_t value)
{
    const auto v = static_cast<std::uint32_t>(value);
    for (int shift = 0; shift < 32; shift += 8) out.push_back(static_cast<std::uint8_t>(v >> shift));
}

} // namespace

void RedEncoder::makeDifferences(std::span<const std::int32_t> samples)
{
    m_differences.clear();
    appendLittleEndian(m_differences, samples[0]); // the first key sample's flag is implicit
    for (std::size_t i = 1; i < samples.size(); ++i) {
        const std::int32_t diff = static_cast<std::int32_t>(static_cast<std::uint32_t>(samples[i]) -
                                                            static_cast<std::uint32_t>(samples[i - 1]));
        if (diff >= -127 && diff <= 127) {
            m_differences.push_back(static_cast<std::uint8_t>(static_cast<std::int8_t>(diff)));
        } else {
            m_differences.push_back(kKeySampleFlag);
            appendLittleEndian(m_differences, samples[i]);
        }
    }
}

void RedEncoder::makeStatistics(std::uint8_t* statistics)
{
    std::uint32_t counts[256] = {};
    for (std::uint8_t b : m_differences) ++counts[b];
    const std::uint32_t maxCount = *std::max_element(std::begin(counts), std::end(counts));
    const double scale = maxCount > 255 ? 254.999999999 / static_cast<double>(maxCount) : 1.0;
    for (int s = 0; s < 256; ++s) {
        const std::uint32_t c = counts[s];
        statistics[s] = static_cast<std::uint8_t>(c == 0 || maxCount <= 255 ? c : std::ceil(c * scale)); // used: >= 1
    }
}

void RedEncoder::rangeEncode(const std::uint8_t* statistics)
{
    std::uint32_t cumulative[257];
    cumulative[0] = 0;
    for (int s = 0; s < 256; ++s) cumulative[s + 1] = cumulative[s] + statistics[s];
    const std::uint32_t total = cumulative[256];

    m_coded.clear();
    CarryWriter writer(m_coded);
    std::uint32_t low = 0;
    std::uint32_t range = kTopValue;
    for (std::uint8_t symbol : m_differences) {
        normalize(low, range, writer);
        const std::uint32_t perCount = range / total;
        const std::uint32_t below = perCount * cumulative[symbol];
        low += below;
        range = symbol < 255 ? perCount * statistics[symbol] : range - below; // the last symbol takes the rest
    }
    normalize(low, range, writer);
    const std::uint32_t last = (low >> kShiftBits) + 1;
    writer.release(last > 0xFF);
    m_coded.push_back(static_cast<std::uint8_t>(last & 0xFF));
    m_coded.push_back(0);
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
        out.insert(out.end(), m_coded.begin() + 1, m_coded.end()); // the coder's first byte is junk
        out.resize(at + (out.size() - at + 7) / 8 * 8, kPadByte);
        summary.blockBytes = static_cast<std::uint32_t>(out.size() - at);
        summary.differenceBytes = static_cast<std::uint32_t>(m_differences.size() + 1);
        summary.minimum = summary.maximum = kRedNan; // RED NaN samples do not count as extrema
        for (const std::int32_t v : samples) {
            if (v == kRedNan) continue;
            if (summary.minimum == kRedNan || v < summary.minimum) summary.minimum = v;
            if (summary.maximum == kRedNan || v > summary.maximum) summary.maximum = v;
        }
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
