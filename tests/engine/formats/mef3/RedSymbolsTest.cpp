// The RED symbol kernels against the scalar decoder, bit for bit: every reference block, encoded blocks of every
// size, random (corrupt) coded bytes, at every alignment, in batches that refill and hand lanes over.
#include "formats/mef3/RedSymbols.h"

#include "core/LittleEndian.h"
#include "formats/mef3/RedBlock.h"
#include "formats/mef3/RedEncoder.h"
#include "formats/mef3/TimeSeriesIndex.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <random>

namespace lv::formats::mef3 {
namespace {

using core::SimdLevel;

// One block in a buffer of its own, exactly as long as the block from a chosen alignment on, so that a read past
// it is caught by AddressSanitizer.
struct OwnedBlock {
    std::unique_ptr<std::uint8_t[]> storage;
    std::span<const std::uint8_t> bytes;
};

OwnedBlock placed(const std::vector<std::uint8_t>& block, std::size_t alignment)
{
    OwnedBlock b{std::make_unique<std::uint8_t[]>(block.size() + alignment), {}};
    std::memcpy(b.storage.get() + alignment, block.data(), block.size());
    b.bytes = std::span<const std::uint8_t>(b.storage.get() + alignment, block.size());
    return b;
}

std::vector<std::uint8_t> encoded(const std::vector<std::int32_t>& samples)
{
    RedEncoder encoder;
    std::vector<std::uint8_t> block;
    encoder.encode(samples, 0, false, block);
    return block;
}

// A random walk whose steps reach `scale` counts: small scales stay in byte differences, large ones take key samples.
std::vector<std::int32_t> walk(std::size_t n, std::int64_t scale, std::mt19937& rng)
{
    std::vector<std::int32_t> samples(n);
    std::int64_t v = 0;
    for (auto& s : samples) {
        v += static_cast<std::int64_t>(rng() % (2 * static_cast<std::uint64_t>(scale) + 1)) - scale;
        v = std::clamp<std::int64_t>(v, INT32_MIN + 1, INT32_MAX);
        s = static_cast<std::int32_t>(v);
    }
    return samples;
}

// The symbols every block decodes to on `level`, each block's first `count` bytes.
std::vector<std::vector<std::uint8_t>> symbolsOf(const std::vector<OwnedBlock>& blocks, SimdLevel level)
{
    std::vector<std::vector<RedLookupEntry>> tables;
    std::vector<std::vector<std::uint8_t>> symbols;
    std::vector<RedSymbolLane> lanes;
    for (const OwnedBlock& b : blocks) {
        const RedBlockHeader h = parseRedHeader(b.bytes);
        const std::uint32_t total = redStatisticsTotal(h);
        tables.emplace_back(total + kRedLookupSlack);
        fillRedLookup(h.statistics, tables.back().data());
        const std::uint32_t count = redSymbolCount(h);
        symbols.emplace_back(count + kRedSymbolSlack, std::uint8_t{0xAA});
        const std::uint8_t* end = b.bytes.data() + std::min<std::size_t>(h.blockBytes, b.bytes.size());
        lanes.push_back(startRedSymbolLane(tables.back().data(), total, b.bytes.data() + kRedHeaderBytes, end,
                                           symbols.back().data(), total == 0 ? 0 : count));
    }
    decodeRedSymbols(lanes, level);
    for (std::size_t k = 0; k < lanes.size(); ++k) {
        EXPECT_EQ(lanes[k].done, lanes[k].count) << "block " << k;
        symbols[k].resize(lanes[k].count);
    }
    return symbols;
}

std::vector<SimdLevel> kernels()
{
    std::vector<SimdLevel> levels;
    if (core::cpuRuns(SimdLevel::Avx2)) levels.push_back(SimdLevel::Avx2);
    return levels;
}

void expectSameSymbols(const std::vector<OwnedBlock>& blocks, const std::string& what)
{
    const auto expected = symbolsOf(blocks, SimdLevel::Scalar);
    for (SimdLevel level : kernels()) {
        const auto got = symbolsOf(blocks, level);
        for (std::size_t k = 0; k < blocks.size(); ++k)
            ASSERT_TRUE(got[k] == expected[k])
                << what << ": block " << k << " of " << blocks.size() << " on " << core::simdLevelName(level);
    }
}

// What decodeRedBatch makes of every block on `level`: samples and error messages ("" where none).
struct Decoded {
    std::vector<std::vector<std::int32_t>> samples;
    std::vector<std::string> errors;
};

Decoded decodedOn(const std::vector<OwnedBlock>& blocks, SimdLevel level)
{
    Decoded d;
    std::vector<RedTask> tasks;
    for (const OwnedBlock& b : blocks) d.samples.emplace_back(parseRedHeader(b.bytes).sampleCount, 0x5A5A5A5A);
    for (std::size_t k = 0; k < blocks.size(); ++k)
        tasks.push_back({parseRedHeader(blocks[k].bytes), blocks[k].bytes, d.samples[k], {}});
    decodeRedBatch(tasks, level);
    for (const RedTask& t : tasks) d.errors.push_back(t.status.ok() ? "" : t.status.error().message);
    return d;
}

// Every block of the reference sessions (other tools wrote them; encrypted ones left out) through decodeRedBatch on
// every kernel: the same samples and the same errors as the scalar code.
TEST(RedSymbols, EveryReferenceBlockDecodesOnEveryKernelAsOnTheScalarOne)
{
    if (kernels().empty()) GTEST_SKIP() << "this CPU runs no SIMD kernel";
    std::size_t blocks = 0;
    for (const char* session : {"meflib/meflib_rto.mefd/LA1.timd/LA1-000000.segd/LA1-000000",
                                "meflib/meflib_rto.mefd/LA2.timd/LA2-000000.segd/LA2-000000",
                                "legacy/multi_segment.mefd/ch1.timd/ch1-000000.segd/ch1-000000",
                                "legacy/multi_segment.mefd/ch1.timd/ch1-000001.segd/ch1-000001",
                                "legacy/multi_channel.mefd/ch1.timd/ch1-000000.segd/ch1-000000",
                                "legacy/multi_channel.mefd/ch2.timd/ch2-000000.segd/ch2-000000",
                                "legacy/plain_single.mefd/ch1.timd/ch1-000000.segd/ch1-000000",
                                "legacy/nan_gap_long.mefd/ch1.timd/ch1-000000.segd/ch1-000000",
                                "legacy/with_annotations.mefd/ch1.timd/ch1-000000.segd/ch1-000000"}) {
        const std::string base = (test::testdata() / "mef3" / session).string();
        const auto data = test::readBytes(base + ".tdat");
        auto index = parseTimeSeriesIndex(test::readBytes(base + ".tidx"), "tidx");
        ASSERT_TRUE(index.ok()) << session;
        std::vector<OwnedBlock> owned;
        for (const IndexEntry& e : index->entries)
            owned.push_back(placed(
                std::vector<std::uint8_t>(data.begin() + e.fileOffset, data.begin() + e.fileOffset + e.blockBytes),
                owned.size() % 8));
        expectSameSymbols(owned, session);
        const Decoded expected = decodedOn(owned, SimdLevel::Scalar);
        for (const std::string& e : expected.errors) EXPECT_EQ(e, "") << session;
        for (SimdLevel level : kernels()) {
            const Decoded got = decodedOn(owned, level);
            EXPECT_TRUE(got.samples == expected.samples) << session << " on " << core::simdLevelName(level);
            EXPECT_EQ(got.errors, expected.errors) << session;
        }
        blocks += owned.size();
    }
    EXPECT_EQ(blocks, 66u);
}

// Encoded blocks of 1 to 3,000 samples at four scales (byte differences to mostly key samples), in batches of 1 to
// 70 blocks (fewer than the kernel's lanes, refills, more than one wave), each at every alignment in turn.
TEST(RedSymbols, EncodedBlocksOfEverySizeDecodeOnEveryKernelAsOnTheScalarOne)
{
    if (kernels().empty()) GTEST_SKIP() << "this CPU runs no SIMD kernel";
    std::mt19937 rng(2207);
    const std::size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 100, 256, 1000, 2560, 3000};
    for (std::int64_t scale : {1, 40, 3000, 100000000}) {
        for (std::size_t batch : {1, 2, 3, 5, 8, 9, 13, 24, 64, 70}) {
            std::vector<OwnedBlock> blocks;
            for (std::size_t k = 0; k < batch; ++k)
                blocks.push_back(placed(encoded(walk(sizes[rng() % std::size(sizes)], scale, rng)), k % 8));
            expectSameSymbols(blocks, "scale " + std::to_string(scale) + ", batch " + std::to_string(batch));
            const Decoded expected = decodedOn(blocks, SimdLevel::Scalar);
            for (const std::string& e : expected.errors) ASSERT_EQ(e, "");
            for (SimdLevel level : kernels())
                ASSERT_TRUE(decodedOn(blocks, level).samples == expected.samples) << "scale " << scale;
        }
    }
}

// Damaged blocks: random coded bytes under random statistics (sparse, dense, a single symbol, only 255, all 255 for
// the largest total), coded bytes cut short, sizes that claim more symbols than there are bytes. The kernels decode
// whatever the scalar code decodes, and fail where and as it fails.
TEST(RedSymbols, RandomCodedBytesDecodeOnEveryKernelAsOnTheScalarOne)
{
    if (kernels().empty()) GTEST_SKIP() << "this CPU runs no SIMD kernel";
    std::mt19937 rng(91);
    for (int round = 0; round < 40; ++round) {
        std::vector<OwnedBlock> blocks;
        const std::size_t batch = 1 + rng() % 40;
        for (std::size_t k = 0; k < batch; ++k) {
            std::vector<std::uint8_t> block = encoded(walk(1 + rng() % 600, 1 + rng() % 500, rng));
            RedBlockHeader h = parseRedHeader(block);
            std::uint8_t* statistics = block.data() + kRedStatisticsOffset;
            switch (rng() % 6) {
            case 0:
                std::fill_n(statistics, 256, std::uint8_t{0});
                statistics[rng() % 256] = 1;
                break;
            case 1:
                std::fill_n(statistics, 256, std::uint8_t{0});
                statistics[255] = 7;
                break;
            case 2:
                std::fill_n(statistics, 256, std::uint8_t{255});
                break;
            case 3:
                for (int s = 0; s < 256; ++s) statistics[s] = rng() % 4 == 0 ? rng() % 256 : 0;
                break;
            default:
                break;
            }
            const std::size_t payload = block.size() - kRedHeaderBytes;
            for (std::size_t i = 0; i < payload; ++i)
                if (rng() % 3 == 0) block[kRedHeaderBytes + i] = static_cast<std::uint8_t>(rng());
            if (rng() % 4 == 0) { // cut short: from no coded byte to all but one
                const std::size_t keep = kRedHeaderBytes + rng() % payload;
                block.resize(keep);
                core::le::store<std::uint32_t>(&block[36], static_cast<std::uint32_t>(keep));
            }
            if (rng() % 4 == 0) core::le::store<std::uint32_t>(&block[28], h.sampleCount * 5);
            blocks.push_back(placed(block, rng() % 8));
        }
        expectSameSymbols(blocks, "round " + std::to_string(round));
        const Decoded expected = decodedOn(blocks, SimdLevel::Scalar);
        for (SimdLevel level : kernels()) {
            const Decoded got = decodedOn(blocks, level);
            ASSERT_EQ(got.errors, expected.errors) << "round " << round;
            ASSERT_TRUE(got.samples == expected.samples) << "round " << round;
        }
    }
}

} // namespace
} // namespace lv::formats::mef3
