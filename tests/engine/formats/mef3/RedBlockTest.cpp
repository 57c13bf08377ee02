// RED round trips through our encoder, meflib's unscale/retrend rounding, and corrupt blocks.
#include "formats/mef3/RedBlock.h"
#include "core/LittleEndian.h"
#include "formats/mef3/RedEncoder.h"
#include "formats/mef3/TimeSeriesIndex.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <gtest/gtest.h>
#include <random>

namespace lv::formats::mef3 {
namespace {

std::vector<std::int32_t> decode(const std::vector<std::uint8_t>& block)
{
    const RedBlockHeader h = parseRedHeader(block);
    std::vector<std::int32_t> out(h.sampleCount);
    const core::Status s = decodeRed(h, block, out);
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
    return out;
}

TEST(RedBlock, RoundTripsSmallLargeAndNanValues)
{
    std::mt19937 rng(7);
    for (int scale : {1, 100, 100000, 1 << 30}) {
        std::vector<std::int32_t> samples(3000);
        std::int64_t v = 0;
        for (auto& s : samples) {
            v = v / 2 + static_cast<std::int64_t>(rng() % (2ull * scale + 1)) - scale;
            s = static_cast<std::int32_t>(std::clamp<std::int64_t>(v, INT32_MIN + 1, INT32_MAX));
        }
        samples[17] = INT32_MIN; // RED NaN
        samples[2999] = INT32_MAX;
        RedEncoder encoder;
        std::vector<std::uint8_t> block;
        const RedBlockSummary summary = encoder.encode(samples, 123, true, block);
        EXPECT_EQ(summary.blockBytes, block.size());
        EXPECT_EQ(block.size() % 8, 0u);
        EXPECT_TRUE(redCrcOk(parseRedHeader(block), block));
        EXPECT_EQ(decode(block), samples) << "scale " << scale;
        EXPECT_EQ(summary.maximum, INT32_MAX);
        EXPECT_NE(summary.minimum, INT32_MIN);
    }
}

// meflib unscales with round-half-away-from-zero, then adds slope * (i + 1) + intercept the same way.
// Every block meflib wrote in the reference session, decoded and encoded again, gives meflib's bytes back:
// statistics, coded differences and padding (the header differs only where meflib stores times negated).
TEST(RedBlock, ReencodingMeflibBlocksGivesMeflibsBytes)
{
    std::size_t blocks = 0;
    for (const char* channel : {"LA1", "LA2"}) {
        const auto base = test::testdata() / "mef3/meflib/meflib_rto.mefd" / (std::string(channel) + ".timd") /
                          (std::string(channel) + "-000000.segd") / (std::string(channel) + "-000000");
        const auto data = test::readBytes(base.string() + ".tdat");
        auto index = parseTimeSeriesIndex(test::readBytes(base.string() + ".tidx"), "tidx");
        ASSERT_TRUE(index.ok());
        RedEncoder encoder;
        for (const IndexEntry& e : index->entries) {
            const std::vector<std::uint8_t> stored(data.begin() + e.fileOffset,
                                                   data.begin() + e.fileOffset + e.blockBytes);
            const RedBlockHeader h = parseRedHeader(stored);
            ASSERT_EQ(h.scaleFactor, 1.0f);
            std::vector<std::uint8_t> again;
            const RedBlockSummary summary = encoder.encode(decode(stored), h.startTime, h.discontinuity(), again);
            ASSERT_EQ(again.size(), stored.size()) << channel << " block at " << e.fileOffset;
            EXPECT_TRUE(
                std::equal(again.begin() + kRedStatisticsOffset, again.end(), stored.begin() + kRedStatisticsOffset))
                << channel << " block at " << e.fileOffset;
            EXPECT_EQ(summary.differenceBytes, h.differenceBytes);
            EXPECT_EQ(summary.maximum, e.maximumSampleValue);
            EXPECT_EQ(summary.minimum, e.minimumSampleValue);
            ++blocks;
        }
    }
    EXPECT_EQ(blocks, 58u);
}

TEST(RedBlock, ScaleFactorAndDetrendRoundLikeMeflib)
{
    const std::vector<std::int32_t> stored{1, -1, 3, -3, 0, 5};
    RedEncoder encoder;
    std::vector<std::uint8_t> block;
    encoder.encode(stored, 0, false, block);
    core::le::store<float>(&block[24], 2.5f);
    EXPECT_EQ(decode(block), (std::vector<std::int32_t>{3, -3, 8, -8, 0, 13}));
    core::le::store<float>(&block[24], 1.0f);
    core::le::store<float>(&block[16], 0.5f);  // slope
    core::le::store<float>(&block[20], -1.0f); // intercept
    EXPECT_EQ(decode(block), (std::vector<std::int32_t>{1, -1, 4, -2, 2, 7}));
}

// A NaN detrend slope (found by fuzzing) must not reach an undefined float-to-int cast: RED NaN comes out.
TEST(RedBlock, NanDetrendGivesRedNan)
{
    const std::vector<std::int32_t> stored{1, 2, 3};
    RedEncoder encoder;
    std::vector<std::uint8_t> block;
    encoder.encode(stored, 0, false, block);
    core::le::store<float>(&block[16], std::nanf(""));
    EXPECT_EQ(decode(block), (std::vector<std::int32_t>{INT32_MIN, INT32_MIN, INT32_MIN}));
}

TEST(RedBlock, CorruptBlocksAreErrorsNotHangs)
{
    std::vector<std::int32_t> samples(500, 42);
    RedEncoder encoder;
    std::vector<std::uint8_t> block;
    encoder.encode(samples, 0, false, block);
    RedBlockHeader h = parseRedHeader(block);
    std::vector<std::int32_t> out(h.sampleCount);
    h.statistics.fill(0);
    EXPECT_EQ(decodeRed(h, block, out).error().message, "RED block statistics are all zero");
    h = parseRedHeader(block);
    h.differenceBytes = 10;
    EXPECT_EQ(decodeRed(h, block, out).error().message, "RED block decodes to 7 of its 500 samples");
    h = parseRedHeader(block);
    h.blockBytes = 100000;
    EXPECT_EQ(decodeRed(h, block, out).error().message, "RED block size 100000 is impossible");
}

} // namespace
} // namespace lv::formats::mef3
