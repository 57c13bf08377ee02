// libFuzzer target: arbitrary bytes as one RED block, header parsed and samples decoded (never crash or overrun).
#include "formats/mef3/RedBlock.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mef3 = lv::formats::mef3;

namespace {

// Larger announced blocks are skipped: the decoder is linear in the sample count, and real blocks are far smaller.
constexpr std::uint32_t kMaxSamples = 1u << 20;

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < mef3::kRedHeaderBytes) return 0;
    const std::span<const std::uint8_t> block(data, size);
    mef3::RedBlockHeader h = mef3::parseRedHeader(block);
    if (h.sampleCount > kMaxSamples) return 0;
    (void)mef3::redCrcOk(h, block);

    // Exactly sampleCount samples, so that ASan sees any write past the announced count.
    std::vector<std::int32_t> out(h.sampleCount);

    // 1. As stored: a blockBytes beyond the input must be refused, not read.
    (void)mef3::decodeRed(h, block, out);

    // 2. blockBytes forced to the input size so that the range decoder really runs over the payload.
    h.blockBytes = static_cast<std::uint32_t>(size);
    (void)mef3::decodeRed(h, block, out);

    // 3. An output one sample too short must be refused.
    if (h.sampleCount > 0) {
        const mef3::RedBlockHeader& ch = h;
        const std::span<std::int32_t> shortOut = std::span(out).first(h.sampleCount - 1);
        if (mef3::decodeRed(ch, block, shortOut).ok()) __builtin_trap();
    }
    return 0;
}
