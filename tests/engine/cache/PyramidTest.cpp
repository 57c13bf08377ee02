// Pyramid bins against brute force: summaries of decoded blocks, envelopes from bins equal to min/max over the
// samples with exact NaN flags (also inside blocks that have stored extrema), the file round trip (streamed), and
// the pyramid's memory counted in the cache budget.
#include "cache/Pyramid.h"

#include "MemorySource.h"
#include "cache/ViewContext.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>

namespace lv::cache {
namespace {
using namespace lv::cache::testing;

void buildAll(const ViewContext& view)
{
    for (std::size_t b = 0; b < view.source->blocks(0).size(); ++b)
        ASSERT_TRUE(fetchBlockUncached(view, 0, b, {}).ok());
}

TEST(Pyramid, BinsHoldMinMaxAndNaNOfTheirSamples)
{
    const std::vector<std::int32_t> samples{5, -3, core::kNoSample, 7, core::kNoSample, core::kNoSample, 2};
    const BlockSummary s = summarize(samples, 3);
    EXPECT_EQ(s.minimum, (std::vector<std::int32_t>{-3, 7, 2}));
    EXPECT_EQ(s.maximum, (std::vector<std::int32_t>{5, 7, 2}));
    EXPECT_EQ(s.hasNaN, (std::vector<std::uint8_t>{1, 1, 0}));
    EXPECT_TRUE(s.anyNaN);
    const BlockSummary empty = summarize(std::vector<std::int32_t>{core::kNoSample, core::kNoSample}, 4);
    EXPECT_GT(empty.minimum[0], empty.maximum[0]); // no data in the bin
}

TEST(Pyramid, EnvelopesFromBinsMatchBruteForceWithExactNaNFlags)
{
    MemorySource source;
    fill(source);
    for (core::BlockSpan& s : source.spans) s.hasExtrema = true; // NaN samples hide inside stored extrema
    BlockCache cache(64 << 20);
    Pyramid pyramid(source, 1, 16);
    const ViewContext view{&source, &cache, 1, &pyramid};
    // Without summaries, a column over all of block 11 misses its NaN samples: the known gap the pyramid closes.
    const std::int64_t b11 = source.spans[11].first;
    auto before = computeEnvelope(view, {1, 0, b11, b11 + 100, 1}, {});
    ASSERT_TRUE(before.ok());
    EXPECT_FALSE(before->front().hasNaN);
    EXPECT_TRUE(before->front().nanUnchecked);
    buildAll(view);
    EXPECT_EQ(pyramid.builtBlocks(), source.spans.size());
    EXPECT_EQ(cache.stats().entries, 0u); // a pyramid build does not fill the cache
    auto after = computeEnvelope(view, {1, 0, b11, b11 + 100, 1}, {});
    ASSERT_TRUE(after.ok());
    EXPECT_TRUE(after->front().hasNaN);
    EXPECT_FALSE(after->front().nanUnchecked);
    std::mt19937 rng(21);
    for (int round = 0; round < 300; ++round) {
        const std::int64_t first = static_cast<std::int64_t>(rng() % 19'000);
        const std::int64_t end = first + 1 + static_cast<std::int64_t>(rng() % (20'500 - first));
        const std::size_t columns = 1 + rng() % 600;
        auto got = computeEnvelope(view, {1, 0, first, end, columns}, {});
        ASSERT_TRUE(got.ok());
        SCOPED_TRACE("[" + std::to_string(first) + ", " + std::to_string(end) + ") in " + std::to_string(columns));
        expectSame(*got, bruteForce(source.grid, source.spans, first, end, columns));
        expectAllChecked(*got);
    }
}

TEST(Pyramid, WideColumnsAreServedFromBinsWithoutDecoding)
{
    MemorySource source;
    fill(source);
    for (core::BlockSpan& s : source.spans) s.hasExtrema = true;
    BlockCache cache(64 << 20);
    Pyramid pyramid(source, 1, 16);
    const ViewContext view{&source, &cache, 1, &pyramid};
    buildAll(view);
    const int built = source.decodes.load();
    // 230-sample columns cut blocks; 16-sample bins are within a smear of 0.1 column: no decode at all.
    auto smeared = computeEnvelope(view, {1, 0, 0, 23'000, 100, 0.1}, {});
    ASSERT_TRUE(smeared.ok());
    EXPECT_EQ(source.decodes.load(), built);
    const auto exact = bruteForce(source.grid, source.spans, 0, 23'000, 100);
    for (std::size_t c = 0; c < 100; ++c) {
        EXPECT_EQ((*smeared)[c].hasGap, exact[c].hasGap) << c;
        EXPECT_EQ((*smeared)[c].hasNaN, exact[c].hasNaN) << c;
        EXPECT_LE((*smeared)[c].minimum, exact[c].minimum) << c;
        EXPECT_GE((*smeared)[c].maximum, exact[c].maximum) << c;
    }
}

TEST(Pyramid, SavedAndLoadedSummariesAreKeptOnlyForUnchangedChannels)
{
    MemorySource source;
    fill(source);
    BlockCache cache(64 << 20);
    Pyramid pyramid(source, 1, 16);
    const ViewContext view{&source, &cache, 1, &pyramid};
    for (std::size_t b = 0; b < 30; ++b) ASSERT_TRUE(fetchBlockUncached(view, 0, b, {}).ok());
    lv::test::TempDir dir;
    const std::string file = (dir.path() / "p.lvpyr").string();
    ASSERT_TRUE(pyramid.save(file).ok());

    Pyramid loaded(source, 1, 16);
    ASSERT_TRUE(loaded.load(file).ok());
    EXPECT_EQ(loaded.builtBlocks(), 30u);
    for (std::size_t b = 0; b < 30; ++b) {
        EXPECT_TRUE(std::ranges::equal(loaded.find(0, b)->minimum, pyramid.find(0, b)->minimum));
        EXPECT_TRUE(std::ranges::equal(loaded.find(0, b)->maximum, pyramid.find(0, b)->maximum));
        EXPECT_TRUE(std::ranges::equal(loaded.find(0, b)->hasNaN, pyramid.find(0, b)->hasNaN));
    }
    MemorySource changed;
    fill(changed);
    changed.spans[5].maximum += 1; // another block list: the channel's summaries are dropped
    Pyramid stale(changed, 1, 16);
    ASSERT_TRUE(stale.load(file).ok());
    EXPECT_EQ(stale.builtBlocks(), 0u);
    Pyramid otherBins(source, 1, 32);
    EXPECT_EQ(otherBins.load(file).error().code, core::ErrorCode::Corrupt);

    const auto bytes = lv::test::readBytes(file);
    for (std::size_t at : {std::size_t{3}, std::size_t{9}, bytes.size() / 2, bytes.size() - 1}) {
        auto damaged = bytes;
        damaged[at] ^= 0x5a;
        lv::test::writeBytes(file, damaged);
        Pyramid p(source, 1, 16);
        auto status = p.load(file);
        EXPECT_FALSE(status.ok()) << at;
        EXPECT_EQ(p.builtBlocks(), 0u) << at;
    }
}

TEST(Pyramid, ItsMemoryCountsInTheCacheBudgetAndStaysWithinHalfOfIt)
{
    MemorySource source;
    fill(source);
    const std::size_t budget = 24 << 10;
    BlockCache cache(budget);
    Pyramid pyramid(source, 1, 16);
    pyramid.chargeTo(cache, 1);
    const ViewContext view{&source, &cache, 1, &pyramid};
    for (std::size_t b = 0; b < source.spans.size(); ++b) {
        ASSERT_TRUE(fetchBlock(view, 0, b, {}).ok());
        const CacheStats s = cache.stats();
        ASSERT_EQ(s.reserved, pyramid.bytes()) << b;
        ASSERT_LE(s.bytes + s.reserved, budget) << b; // nothing pinned: blocks and pyramid within the budget
    }
    EXPECT_LE(pyramid.bytes(), budget / 2);
    EXPECT_GT(pyramid.builtBlocks(), 0u);
    EXPECT_LT(pyramid.builtBlocks(), source.spans.size()); // the rest was refused room
    for (std::size_t b = 0; b < source.spans.size(); ++b)
        if (auto bins = pyramid.find(0, b)) {
            const auto& s = source.spans[b];
            const BlockSummary want = summarize(std::span(source.grid).subspan(s.first, s.count), 16);
            EXPECT_TRUE(std::ranges::equal(bins->minimum, want.minimum)) << b;
            EXPECT_TRUE(std::ranges::equal(bins->maximum, want.maximum)) << b;
            EXPECT_TRUE(std::ranges::equal(bins->hasNaN, want.hasNaN)) << b;
        }
}

// A source of 4000 blocks of 100 samples (one per grid bin with bins of one sample): a file of megabytes, written
// and read in many pieces.
TEST(Pyramid, ALargeFileStreamsBackToTheSameBins)
{
    MemorySource source;
    std::mt19937 rng(9);
    source.grid.resize(400'000);
    for (auto& v : source.grid)
        v = rng() % 50 == 0 ? core::kNoSample : static_cast<std::int32_t>(rng() % 20001) - 10000;
    for (std::int64_t at = 0; at < 400'000; at += 100) source.spans.push_back({at, 100, 0, 0, false});
    BlockCache cache(1 << 20);
    Pyramid pyramid(source, 1, 1);
    const ViewContext view{&source, &cache, 1, &pyramid};
    for (std::size_t b = 0; b < source.spans.size(); b += 1 + b % 3)
        ASSERT_TRUE(fetchBlockUncached(view, 0, b, {}).ok());
    lv::test::TempDir dir;
    const std::string file = (dir.path() / "p.lvpyr").string();
    ASSERT_TRUE(pyramid.save(file).ok());
    ASSERT_TRUE(pyramid.save(file).ok()); // written in pieces beside the file and renamed over it
    ASSERT_GT(std::filesystem::file_size(file), 1u << 20);
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1); // no temporary file left
    EXPECT_FALSE(pyramid.save((dir.path() / "missing" / "p.lvpyr").string()).ok());   // an error, not a throw

    Pyramid loaded(source, 1, 1);
    ASSERT_TRUE(loaded.load(file).ok());
    ASSERT_EQ(loaded.builtBlocks(), pyramid.builtBlocks());
    for (std::size_t b = 0; b < source.spans.size(); ++b) {
        ASSERT_EQ(loaded.find(0, b).has_value(), pyramid.find(0, b).has_value()) << b;
        if (!pyramid.find(0, b)) continue;
        EXPECT_TRUE(std::ranges::equal(loaded.find(0, b)->minimum, pyramid.find(0, b)->minimum)) << b;
        EXPECT_TRUE(std::ranges::equal(loaded.find(0, b)->maximum, pyramid.find(0, b)->maximum)) << b;
        EXPECT_TRUE(std::ranges::equal(loaded.find(0, b)->hasNaN, pyramid.find(0, b)->hasNaN)) << b;
        EXPECT_EQ(loaded.find(0, b)->anyNaN, pyramid.find(0, b)->anyNaN) << b;
    }
    const auto bytes = lv::test::readBytes(file);
    for (const std::size_t keep : {bytes.size() - 1, bytes.size() * 3 / 4, std::size_t{20}}) { // cut off
        lv::test::writeBytes(file, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + keep));
        Pyramid p(source, 1, 1);
        EXPECT_EQ(p.load(file).error().code, core::ErrorCode::Corrupt) << keep;
        EXPECT_EQ(p.builtBlocks(), 0u) << keep;
    }
    auto longer = bytes; // anything after the frame
    longer.push_back(0);
    lv::test::writeBytes(file, longer);
    Pyramid p(source, 1, 1);
    EXPECT_EQ(p.load(file).error().code, core::ErrorCode::Corrupt);
    EXPECT_EQ(p.builtBlocks(), 0u);
}

} // namespace
} // namespace lv::cache
