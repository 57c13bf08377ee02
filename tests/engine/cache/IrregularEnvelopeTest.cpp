// Irregular envelopes against brute force: per column extrema, empty columns, NaN and step joins over random
// requests on synthetic irregular channels (with and without the pyramid's bins) and on ASAP2_Demo_V171.mf4.
#include "cache/IrregularEnvelope.h"

#include "cache/PageLoader.h"

#include "core/Time.h"
#include "support/IrregularRecording.h"
#include "support/TestSupport.h"
#include "view/ViewSession.h"

#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <random>

namespace lv::cache {
namespace {

constexpr std::int64_t kT0 = 1'700'000'000'000'000'000; // ns, 2023

// Every column and join from every sample, independently of the walk (column edges by long double arithmetic).
IrregularEnvelope bruteForce(const std::vector<std::int64_t>& t, const std::vector<std::int32_t>& v,
                             core::TimeRange range, std::size_t width, std::int64_t maxGap)
{
    IrregularEnvelope e;
    e.columns.resize(width);
    const std::int64_t s = core::usToNs(range.start), d = core::usToNs(range.end) - s;
    const auto edge = [&](std::size_t c) {
        return s + static_cast<std::int64_t>(std::floor(static_cast<long double>(d) * static_cast<long double>(c) /
                                                        static_cast<long double>(width)));
    };
    const auto valid = [&](std::ptrdiff_t i) { return v[static_cast<std::size_t>(i)] != core::kNoSample; };
    std::vector<std::int64_t> edges;
    for (std::size_t c = 0; c <= width; ++c) edges.push_back(edge(c));
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] < s || t[i] >= s + d) continue;
        const auto c = static_cast<std::size_t>(std::upper_bound(edges.begin(), edges.end(), t[i]) - edges.begin() - 1);
        IrregularColumn& col = e.columns[c];
        const std::int32_t x = v[i];
        if (x == core::kNoSample) {
            col.hasNaN = true;
        } else {
            col.minimum = col.hasData ? std::min(col.minimum, x) : x;
            col.maximum = col.hasData ? std::max(col.maximum, x) : x;
            col.hasData = true;
            col.last = x;
        }
        col.lastValid = x != core::kNoSample;
    }
    const auto joinedAt = [&](std::int64_t at) { // the pair of samples either side of `at`
        const std::ptrdiff_t j = std::lower_bound(t.begin(), t.end(), at) - t.begin(), i = j - 1;
        return i >= 0 && j < std::ssize(t) && valid(i) && valid(j) && maxGap >= 0 &&
               t[static_cast<std::size_t>(j)] - t[static_cast<std::size_t>(i)] <= maxGap;
    };
    for (std::size_t c = 0; c < width; ++c) e.columns[c].joinedIn = joinedAt(edges[c]);
    e.joinedOut = joinedAt(edges[width]);
    const std::ptrdiff_t before = std::lower_bound(t.begin(), t.end(), s) - t.begin() - 1;
    e.hasBefore = before >= 0 && valid(before);
    if (e.hasBefore) e.before = v[static_cast<std::size_t>(before)];
    return e;
}

void expectSame(const IrregularEnvelope& got, const IrregularEnvelope& want)
{
    ASSERT_EQ(got.columns.size(), want.columns.size());
    EXPECT_EQ(got.hasBefore, want.hasBefore);
    if (want.hasBefore) {
        EXPECT_EQ(got.before, want.before);
    }
    EXPECT_EQ(got.joinedOut, want.joinedOut);
    for (std::size_t c = 0; c < want.columns.size(); ++c) {
        const IrregularColumn &g = got.columns[c], &w = want.columns[c];
        SCOPED_TRACE("column " + std::to_string(c));
        ASSERT_EQ(g.hasData, w.hasData);
        if (w.hasData) {
            ASSERT_EQ(g.minimum, w.minimum);
            ASSERT_EQ(g.maximum, w.maximum);
        }
        ASSERT_EQ(g.hasNaN, w.hasNaN);
        ASSERT_EQ(g.lastValid, w.lastValid);
        if (w.lastValid) {
            ASSERT_EQ(g.last, w.last);
        }
        ASSERT_EQ(g.joinedIn, w.joinedIn);
        ASSERT_FALSE(g.hasDamage);
    }
}

// 20,000 samples about 1 ms apart (jittered, some at the same time), 1 % followed by a pause of 20-200 ms, 2 %
// invalid; blocks of 64.
test::IrregularRecording synthetic()
{
    std::mt19937 rng(11);
    std::vector<std::int64_t> times;
    std::vector<std::int32_t> counts;
    std::int64_t t = kT0 + 123'456;
    for (int i = 0; i < 20'000; ++i) {
        times.push_back(t);
        counts.push_back(rng() % 50 == 0 ? core::kNoSample : static_cast<std::int32_t>(rng() % 2001) - 1000);
        const unsigned kind = rng() % 100;
        t += kind == 0   ? 20'000'000 + static_cast<std::int64_t>(rng() % 180'000'000)
             : kind == 1 ? 0
                         : 500'000 + static_cast<std::int64_t>(rng() % 1'000'000);
    }
    test::IrregularRecording r;
    r.addChannel("can", std::move(times), std::move(counts));
    return r;
}

TEST(IrregularEnvelope, MatchesBruteForceOnRandomRequests)
{
    test::IrregularRecording r = synthetic();
    BlockCache cache(64 << 20);
    const ViewContext view{&r, &cache, 1, nullptr, nullptr, &r};
    const auto& ch = r.channels[0];
    const core::Uutc first = core::nsToUs(ch.timesNs.front()), last = core::nsToUs(ch.timesNs.back());
    std::mt19937 rng(3);
    for (int round = 0; round < 300; ++round) {
        const core::Uutc a = first - 5'000 + static_cast<core::Uutc>(rng() % static_cast<unsigned>(last - first));
        const core::Uutc b = a + 1 + static_cast<core::Uutc>(rng() % static_cast<unsigned>(last + 10'000 - a));
        const std::size_t columns = 1 + rng() % 3000;
        const std::int64_t gaps[] = {-1, 0, 1'000'000, 15'000'000, 1'000'000'000'000};
        const std::int64_t maxGap = gaps[rng() % 5];
        SCOPED_TRACE("[" + std::to_string(a) + ", " + std::to_string(b) + ") in " + std::to_string(columns) +
                     ", max gap " + std::to_string(maxGap));
        auto got = computeIrregularEnvelope(view, {0, {a, b}, columns, maxGap}, {});
        ASSERT_TRUE(got.ok()) << got.error().describe();
        expectSame(*got, bruteForce(ch.timesNs, ch.counts, {a, b}, columns, maxGap));
        ASSERT_EQ(got->binnedBlocks, 0u);
    }
}

TEST(IrregularEnvelope, WideColumnsUsePyramidBinsWithoutDecoding)
{
    test::IrregularRecording r = synthetic();
    Pyramid pyramid(r, 1);
    {
        BlockCache warm(64 << 20);
        const ViewContext view{&r, &warm, 1, &pyramid, nullptr, &r};
        for (std::size_t b = 0; b < r.channels[0].blocks.size(); ++b) ASSERT_TRUE(fetchBlock(view, 0, b, {}).ok());
    }
    const auto& ch = r.channels[0];
    const core::TimeRange whole{core::nsToUs(ch.timesNs.front()), core::nsToUs(ch.timesNs.back()) + 1};
    for (std::size_t columns : {1, 3, 17, 40}) {
        BlockCache cache(64 << 20); // nothing cached: whatever is not binned is decoded
        const ViewContext view{&r, &cache, 1, &pyramid, nullptr, &r};
        const int before = r.decodes();
        auto got = computeIrregularEnvelope(view, {0, whole, columns, 15'000'000}, {});
        ASSERT_TRUE(got.ok());
        SCOPED_TRACE(std::to_string(columns) + " columns");
        expectSame(*got, bruteForce(ch.timesNs, ch.counts, whole, columns, 15'000'000));
        EXPECT_GT(got->binnedBlocks, r.channels[0].blocks.size() / 2);
        EXPECT_EQ(static_cast<std::size_t>(r.decodes() - before), got->decodedBlocks);
        EXPECT_EQ(got->binnedBlocks + got->decodedBlocks, r.channels[0].blocks.size());
    }
}

TEST(IrregularEnvelope, EmptyColumnsStayEmptyAndStepsStopAtLongGaps)
{
    // One sample every 100 ms for 1 s, then none for 600 ms, then two more 100 ms apart.
    std::vector<std::int64_t> times;
    std::vector<std::int32_t> counts;
    for (int i = 0; i < 10; ++i) times.push_back(kT0 + i * 100'000'000), counts.push_back(i * 10);
    for (int i = 0; i < 2; ++i) times.push_back(kT0 + 1'500'000'000 + i * 100'000'000), counts.push_back(-i);
    test::IrregularRecording r;
    r.addChannel("slow", times, counts, 4);
    BlockCache cache(8 << 20);
    const ViewContext view{&r, &cache, 1, nullptr, nullptr, &r};
    const core::TimeRange range{kT0 / 1000, kT0 / 1000 + 2'000'000}; // 2 s in 200 columns of 10 ms
    auto got = computeIrregularEnvelope(view, {0, range, 200, 150'000'000}, {});
    ASSERT_TRUE(got.ok());
    expectSame(*got, bruteForce(times, counts, range, 200, 150'000'000));
    for (std::size_t c = 0; c < 200; ++c) {
        SCOPED_TRACE(c);
        EXPECT_EQ(got->columns[c].hasData, c % 10 == 0 && (c < 100 || c == 150 || c == 160));
        if (c % 10 == 0 && c < 100) {
            EXPECT_EQ(got->columns[c].minimum, static_cast<std::int32_t>(c));
        }
        // Held from sample to sample 100 ms apart; not across the 600 ms without samples, nor past the last one.
        EXPECT_EQ(got->columns[c].joinedIn, (c > 0 && c <= 90) || (c > 150 && c <= 160));
    }
    EXPECT_FALSE(got->hasBefore);
    EXPECT_FALSE(got->joinedOut);
    // With a max gap of 1 s the hold bridges the pause.
    auto wide = computeIrregularEnvelope(view, {0, range, 200, 1'000'000'000}, {});
    ASSERT_TRUE(wide.ok());
    EXPECT_TRUE(wide->columns[120].joinedIn);
    EXPECT_FALSE(wide->columns[120].hasData);
}

TEST(IrregularEnvelope, MatchesReadTimedOnAsap2Demo)
{
    const std::string path = (test::testdata() / "mdf4" / "ASAP2_Demo_V171.mf4").string();
    auto session = view::ViewSession::open(path, view::ViewOptions{"", "", nullptr, 64u << 20, 2});
    ASSERT_TRUE(session.ok()) << session.error().describe();
    view::ViewSession& s = **session;
    const core::RecordingInfo& info = s.info();
    std::size_t irregular = 0;
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        const core::ChannelInfo& ch = info.channels[c];
        if (!ch.irregular) continue;
        ++irregular;
        SCOPED_TRACE(ch.name);
        auto all = core::readTimed(s.recording(), c, {info.start - 1'000'000, info.end + 1'000'000}, {});
        ASSERT_TRUE(all.ok());
        ASSERT_EQ(std::ssize(all->raw), ch.sampleCount);
        const core::Uutc mid = ch.start + (ch.end - ch.start) / 3;
        for (core::TimeRange range : {core::TimeRange{ch.start, ch.end}, core::TimeRange{mid, mid + 700'000}}) {
            for (std::size_t columns : {7, 300, 1400}) {
                auto got = s.irregularEnvelope(c, range, columns);
                ASSERT_TRUE(got.ok()) << got.error().describe();
                expectSame(*got, bruteForce(all->timesNs, all->raw, range, columns,
                                            maxGapNs(ch.fs, core::kIrregularGapFactor)));
            }
        }
        EXPECT_FALSE(s.envelope(c, {ch.start, ch.end}, 10).ok()); // the grid envelope refuses it
    }
    EXPECT_GE(irregular, 20u);
}

TEST(IrregularEnvelope, PageBlocksComeFromTheTimes)
{
    test::IrregularRecording r = synthetic();
    const auto& times = r.channels[0].timesNs;
    const core::TimeRange range{core::nsToUs(times[1000]), core::nsToUs(times[1500]) + 1};
    const auto span = r.samplesIn(0, range);
    ASSERT_TRUE(span.ok());
    const auto blocks = PageLoader::blocksOf(r, r.info(), {0}, range, &r);
    ASSERT_FALSE(blocks.empty());
    EXPECT_EQ(blocks.front().block, static_cast<std::size_t>(span->first / 64));
    EXPECT_EQ(blocks.back().block, static_cast<std::size_t>((span->first + span->count - 1) / 64));
    EXPECT_EQ(blocks.size(), blocks.back().block - blocks.front().block + 1);
    EXPECT_TRUE(PageLoader::blocksOf(r, r.info(), {0}, range).empty()); // no times: no grid to guess from
}

} // namespace
} // namespace lv::cache
