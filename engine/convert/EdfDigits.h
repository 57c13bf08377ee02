// A written EDF/BDF signal's digital samples from the source's counts: the exact expression, or the same values
// in integers (count + K) where that provably gives them, packed little-endian into the record.
#pragma once

#include "convert/EdfPlan.h"
#include "core/RecordingInfo.h"

#include <cstdint>
#include <span>

namespace lv::convert {

class EdfDigits {
public:
    // `minimum`/`maximum`: the channel's counts (minimum > maximum: none); `fill`: the physical value written
    // where a sample is missing.
    EdfDigits(const core::ChannelInfo& source, const EdfChannel& signal, double fill, std::int32_t minimum,
              std::int32_t maximum);

    // nearbyint((count x factor + offset - signal offset) / signal scale), clamped to the digital range; the fill
    // value's digital for kNoSample.
    std::int32_t operator()(std::int32_t count) const;
    // Writes counts' digital samples at `out` (2 bytes each, BDF 3), little-endian.
    void write(std::span<const std::int32_t> counts, bool bdf, char* out) const;
    // Whether write() takes the integer path: every count c of [minimum, maximum] maps to c + K exactly, inside
    // the digital range.
    bool integral() const { return m_integral; }

private:
    double m_factor, m_offset, m_scale, m_signalOffset;
    std::int32_t m_low, m_high, m_fill;
    bool m_integral = false;
    std::int64_t m_shift = 0; // K
};

} // namespace lv::convert
