// Envelopes against brute force: per column min, max, data and gap flags over random requests, on an in-memory
// block source (gaps, NaN samples, blocks without stored extrema) and on a real MEF session; whole blocks are
// summarised from their stored extrema without decoding.
#include "cache/Envelope.h"

#include "MemorySource.h"
#include "formats/mef3/MefRecording.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <random>

namespace lv::cache {
namespace {
using namespace lv::cache::testing;

TEST(Envelope, MatchesBruteForceOnRandomRequests)
{
    MemorySource source;
    fill(source);
    BlockCache cache(64 << 20);
    std::mt19937 rng(9);
    for (int round = 0; round < 300; ++round) {
        const std::int64_t first = static_cast<std::int64_t>(rng() % 19'000);
        const std::int64_t end = first + 1 + static_cast<std::int64_t>(rng() % (20'500 - first));
        const std::size_t columns = 1 + rng() % 600;
        auto got = computeEnvelope(source, cache, {1, 0, first, end, columns}, {});
        ASSERT_TRUE(got.ok());
        SCOPED_TRACE("[" + std::to_string(first) + ", " + std::to_string(end) + ") in " + std::to_string(columns));
        expectSame(*got, bruteForce(source.grid, source.spans, first, end, columns));
    }
}

TEST(Envelope, WideColumnsUseStoredExtremaWithoutDecoding)
{
    MemorySource source;
    fill(source);
    for (std::size_t b = 0; b < 10; ++b) source.spans[b].hasExtrema = true; // no NaN inside these ten
    BlockCache cache(64 << 20);
    const std::int64_t end = source.spans[9].first + 100; // one column over ten whole blocks and a gap
    auto got = computeEnvelope(source, cache, {1, 0, 0, end, 1}, {});
    ASSERT_TRUE(got.ok());
    expectSame(*got, bruteForce(source.grid, source.spans, 0, end, 1));
    EXPECT_TRUE(got->front().hasGap);
    EXPECT_EQ(source.decodes.load(), 0);
    EXPECT_EQ(cache.stats().misses, 0u);
    auto zoomed = computeEnvelope(source, cache, {1, 0, 0, 250, 50}, {}); // columns inside blocks: decoded once
    ASSERT_TRUE(zoomed.ok());
    EXPECT_EQ(source.decodes.load(), 3);
}

TEST(Envelope, SmearedOverviewsNeverLosePeaksAndKeepExactGaps)
{
    MemorySource source;
    fill(source);
    for (core::BlockSpan& s : source.spans) s.hasExtrema = true;
    BlockCache cache(64 << 20);
    const std::int64_t end = 20'000;
    auto exact = computeEnvelope(source, cache, {1, 0, 0, end, 40, 0.0}, {});
    const int exactDecodes = source.decodes.load();
    auto smeared = computeEnvelope(source, cache, {2, 0, 0, end, 40, 0.25}, {});
    ASSERT_TRUE(exact.ok() && smeared.ok());
    EXPECT_GT(exactDecodes, 0);
    EXPECT_EQ(source.decodes.load(), exactDecodes); // 100-sample blocks in 500-sample columns: none decoded
    for (std::size_t c = 0; c < 40; ++c) {
        EXPECT_EQ((*smeared)[c].hasGap, (*exact)[c].hasGap) << c;
        EXPECT_LE((*smeared)[c].minimum, (*exact)[c].minimum) << c; // wider or equal, never narrower
        EXPECT_GE((*smeared)[c].maximum, (*exact)[c].maximum) << c;
    }
}

TEST(Envelope, MatchesTheReaderOnAMefSession)
{
    auto r = formats::mef3::openMef3((test::testdata() / "mef3/legacy/nan_gap_long.mefd").string(), {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const core::BlockSource* source = (*r)->blockSource();
    ASSERT_NE(source, nullptr);
    BlockCache cache(64 << 20);
    for (std::size_t c = 0; c < (*r)->info().channels.size(); ++c) {
        const core::ChannelInfo& ch = (*r)->info().channels[c];
        const std::size_t channels[] = {c};
        auto all = core::readRange(**r, channels, {ch.start, ch.end}, {});
        ASSERT_TRUE(all.ok());
        for (std::size_t columns : {1u, 7u, 300u, 5000u}) {
            auto got = computeEnvelope(*source, cache, {1, c, 0, ch.gridLength, columns}, {});
            ASSERT_TRUE(got.ok());
            expectSame(*got, bruteForce(all->front().raw, source->blocks(c), 0, ch.gridLength, columns));
        }
    }
}

} // namespace
} // namespace lv::cache
