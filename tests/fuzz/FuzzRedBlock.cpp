// libFuzzer target: arbitrary bytes as one RED block, header parsed and samples decoded (never crash or overrun).
#include "formats/mef3/RedBlock.h"

#include "core/SimdLevel.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace mef3 = lv::formats::mef3;

namespace {

// Larger announced blocks are skipped: the decoder is linear in the sample count, and real blocks are far smaller.
constexpr std::uint32_t kMaxSamples = 1u << 20;

// Three variants of the block (as forced, half its coded symbols, half its samples) decoded in one batch, so that
// the SIMD kernel runs (it takes three or more blocks): samples and errors equal the scalar code's, or trap.
void compareKernels(const mef3::RedBlockHeader& h, std::span<const std::uint8_t> block)
{
    using lv::core::SimdLevel;
    if (!lv::core::cpuRuns(SimdLevel::Avx2)) return;
    mef3::RedBlockHeader variants[3] = {h, h, h};
    variants[1].differenceBytes /= 2;
    variants[2].sampleCount /= 2;
    std::vector<std::int32_t> outs[2][3];
    std::vector<mef3::RedTask> tasks[2];
    const SimdLevel levels[2] = {SimdLevel::Scalar, SimdLevel::Avx2};
    for (int l = 0; l < 2; ++l) {
        for (int v = 0; v < 3; ++v) {
            outs[l][v].assign(variants[v].sampleCount, 0);
            tasks[l].push_back({variants[v], block, outs[l][v], {}});
        }
        mef3::decodeRedBatch(tasks[l], levels[l]);
    }
    for (int v = 0; v < 3; ++v) {
        const auto& a = tasks[0][v].status;
        const auto& b = tasks[1][v].status;
        if (a.ok() != b.ok() || (!a.ok() && a.error().message != b.error().message)) __builtin_trap();
        if (a.ok() && outs[0][v] != outs[1][v]) __builtin_trap();
    }
}

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

    if (h.sampleCount <= (1u << 16)) compareKernels(h, block);

    // 3. An output one sample too short must be refused.
    if (h.sampleCount > 0) {
        if (mef3::decodeRed(h, block, out.first(h.sampleCount - 1)).ok()) __builtin_trap();
    }
    return 0;
}
