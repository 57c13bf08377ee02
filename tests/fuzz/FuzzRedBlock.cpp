// libFuzzer target: arbitrary bytes as one RED block, header parsed and samples decoded (never crash or overrun).
#include "formats/mef3/RedBlock.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

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

    // Exactly sampleCount samples, so that ASan sees any write past the announced count. Left uninitialised: the
    // decoder only writes, and zeroing up to 4 MiB per input would cost most of the fuzzing time.
    const std::unique_ptr<std::int32_t[]> buffer(new std::int32_t[h.sampleCount]);
    const std::span<std::int32_t> out(buffer.get(), h.sampleCount);

    // 1. As stored: a blockBytes beyond the input must be refused, not read.
    (void)mef3::decodeRed(h, block, out);

    // 2. blockBytes forced to the input size so that the range decoder really runs over the payload.
    h.blockBytes = static_cast<std::uint32_t>(size);
    (void)mef3::decodeRed(h, block, out);

    // 3. An output one sample too short must be refused.
    if (h.sampleCount > 0) {
        if (mef3::decodeRed(h, block, out.first(h.sampleCount - 1)).ok()) __builtin_trap();
    }
    return 0;
}
