// Lossless MEF 3.0 RED block encoder (the algorithm of meflib's RED_encode_exec); decodes bit-exactly in meflib.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace lv::formats::mef3 {

// What the encoder reports about one block, as the .tidx entry and metadata need it.
struct RedBlockSummary {
    std::uint32_t blockBytes = 0;      // header, coded bytes and padding (a multiple of 8)
    std::uint32_t differenceBytes = 0; // including the implicit leading key-sample flag
    std::int32_t maximum = 0;
    std::int32_t minimum = 0;
    std::uint8_t flags = 0;
};

// Reusable scratch buffers; one encoder per thread.
class RedEncoder {
public:
    // Appends one complete lossless RED block (304-byte header, range-coded differences, 0x7E padding, CRC)
    // holding `samples` to `out`. `startTime` is stored as given; `discontinuity` sets flag bit 0.
    RedBlockSummary encode(std::span<const std::int32_t> samples, std::int64_t startTime, bool discontinuity,
                           std::vector<std::uint8_t>& out);

private:
    void makeDifferences(std::span<const std::int32_t> samples);
    std::span<const std::uint8_t> differences() const;
    void makeStatistics(std::uint8_t* statistics);
    void rangeEncode(const std::uint8_t* statistics);

    std::vector<std::uint8_t> m_differences; // sized for the worst case; the first m_differenceCount bytes hold data
    std::size_t m_differenceCount = 0;
    std::vector<std::uint8_t> m_coded; // its first byte is the coder's junk byte, never stored
    std::size_t m_codedCount = 0;
};

} // namespace lv::formats::mef3
