// MEF 3.0 RED (range-encoded differences) block: 304-byte header parsing and sample decoding.
#pragma once

#include "core/Error.h"
#include "core/SimdLevel.h"

#include <array>
#include <cstdint>
#include <span>

namespace lv::formats::mef3 {

inline constexpr std::size_t kRedHeaderBytes = 304;
inline constexpr std::size_t kRedStatisticsOffset = 48;

enum RedFlags : std::uint8_t {
    kRedDiscontinuity = 0x01,
    kRedLevel1Encryption = 0x02,
    kRedLevel2Encryption = 0x04,
};

struct RedBlockHeader {
    std::uint32_t crc = 0;
    std::uint8_t flags = 0;
    float detrendSlope = 0.0f;
    float detrendIntercept = 0.0f;
    float scaleFactor = 1.0f;
    std::uint32_t differenceBytes = 0;
    std::uint32_t sampleCount = 0;
    std::uint32_t blockBytes = 0;               // header included
    std::int64_t startTime = 0;                 // as stored (the recording time offset not yet applied)
    std::array<std::uint8_t, 256> statistics{}; // byte counts of the 256 difference symbols

    bool discontinuity() const { return flags & kRedDiscontinuity; }
    int encryptionLevel() const { return (flags & kRedLevel1Encryption) ? 1 : (flags & kRedLevel2Encryption) ? 2 : 0; }
};

// Parses the fixed header fields of `block` (at least kRedHeaderBytes). No decryption, no CRC check.
RedBlockHeader parseRedHeader(std::span<const std::uint8_t> block);

// Corrupt (no path) when a header field holds what no writer makes: flag bits beyond the three MEF defines or
// both encryption levels at once, a scale factor that is NaN or infinite or over 2^31 (it would turn every
// sample but 0 into a RED infinity), a detrend slope or intercept that is not finite. Checked by the reader
// on every block decoded and by validate.
core::Status checkRedHeaderValues(const RedBlockHeader& header);

// The sum of a block's (decrypted) symbol statistics: its lookup table's entries; 0 in a block that cannot decode.
std::uint32_t redStatisticsTotal(const RedBlockHeader& header);

// The symbols a block's range decoder runs: its difference bytes, at most 5 per sample (a sample takes at most 5
// symbols; more cannot change the output).
std::uint32_t redSymbolCount(const RedBlockHeader& header);

// Checks the block CRC over bytes [4, blockBytes).
bool redCrcOk(const RedBlockHeader& header, std::span<const std::uint8_t> block);

// Decodes header.sampleCount samples into out (out.size() >= sampleCount), exactly as meflib's RED_decode,
// including unscaling and retrending. `block` holds the whole block (header and payload) and
// `header.statistics` must already be decrypted. Returns a Corrupt error (without path) on impossible data.
core::Status decodeRed(const RedBlockHeader& header, std::span<const std::uint8_t> block, std::span<std::int32_t> out);

// One block to decode in a batch; `status` is set by decodeRedBatch.
struct RedTask {
    RedBlockHeader header; // statistics already decrypted
    std::span<const std::uint8_t> block;
    std::span<std::int32_t> out;
    core::Status status;
};

// Decodes every task as decodeRed would (identical output and errors), many blocks side by side, which speeds up
// single-core throughput: each block's range decoder is one long dependency chain. The symbols run on the best
// kernel this CPU has (core::bestSimdLevel), or on `level`'s.
void decodeRedBatch(std::span<RedTask> tasks);
void decodeRedBatch(std::span<RedTask> tasks, core::SimdLevel level);

} // namespace lv::formats::mef3
