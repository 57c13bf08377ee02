// Derivations against the hand computation, sample for sample: a bipolar pair and an average with gaps in
// different channels (missing wherever one term is), channels starting at different grid points, weights that
// no small denominator makes whole, and the refusals in words.
#include "montage/MontageRecording.h"

#include "support/MemoryRecording.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace lv;

namespace {

constexpr std::int32_t kNo = core::kNoSample;

// Fp1 (gap [100, 150)), F7 (gap [300, 320)), Cz: 1000 samples at 256 Hz, counts of 0.5 uV, offsets 0, 3 and -2.
std::unique_ptr<test::MemoryRecording> threeChannels()
{
    auto r = std::make_unique<test::MemoryRecording>();
    r->addChannel("Fp1", 256, 1'000'000, 1000, 3, 100, 150);
    r->addChannel("F7", 256, 1'000'000, 1000, -7, 300, 320);
    r->addChannel("Cz", 256, 1'000'000, 1000, 11);
    r->description.channels[1].offset = 3;
    r->description.channels[2].offset = -2;
    return r;
}

double physical(const core::ChannelInfo& ch, std::int32_t count) { return count * ch.conversionFactor + ch.offset; }

std::vector<std::int32_t> read(core::Recording& r, std::size_t channel, std::int64_t first, std::int64_t count)
{
    std::vector<std::int32_t> out(static_cast<std::size_t>(count));
    const core::RawSlice slice{channel, first, out};
    const core::Status s = r.readRaw({&slice, 1}, {});
    EXPECT_TRUE(s.ok()) << s.error().describe();
    return out;
}

std::unique_ptr<montage::MontageRecording> derive(std::unique_ptr<core::Recording> inner, const montage::Montage& m)
{
    auto r = montage::MontageRecording::create(std::move(inner), m);
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r.ok() ? std::move(*r) : nullptr;
}

} // namespace

TEST(MontageRecording, DerivationsEqualTheHandComputationAndAreMissingWhereAnyTermIs)
{
    const auto source = threeChannels();
    const montage::Montage m{"test",
                             {{"Fp1-F7", "", "EEG", {{"Fp1", 1}, {"F7", -1}}, {}},
                              {"Fp1-Avg", "", "EEG", {{"Fp1", 2.0 / 3}, {"F7", -1.0 / 3}, {"Cz", -1.0 / 3}}, {}}}};
    auto r = derive(threeChannels(), m);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->info().channels.size(), 2u);
    for (std::size_t d = 0; d < 2; ++d) {
        const core::ChannelInfo& ch = r->info().channels[d];
        EXPECT_EQ(ch.gridLength, 1000);
        EXPECT_EQ(ch.sampleCount, 1000 - 50 - 20);
        EXPECT_EQ(ch.gaps, (std::vector<core::TimeRange>{{1'000'000 + 390'625, 1'000'000 + 585'938},
                                                         {1'000'000 + 1'171'875, 1'000'000 + 1'250'000}}));
        const std::vector<std::int32_t> got = read(*r, d, 0, 1000);
        for (std::size_t i = 0; i < 1000; ++i) {
            const auto& in = source->description.channels;
            const std::int32_t a = source->grids[0][i], b = source->grids[1][i], c = source->grids[2][i];
            if (a == kNo || b == kNo) {
                ASSERT_EQ(got[i], kNo) << d << ": sample " << i;
                continue;
            }
            const double want = d == 0 ? physical(in[0], a) - physical(in[1], b)
                                       : (2 * physical(in[0], a) - physical(in[1], b) - physical(in[2], c)) / 3;
            ASSERT_NE(got[i], kNo) << d << ": sample " << i;
            ASSERT_NEAR(physical(ch, got[i]), want, 1e-9) << d << ": sample " << i;
        }
    }
    EXPECT_EQ(r->info().channels[0].conversionFactor, 0.5);     // the channels' own step: exact
    EXPECT_EQ(r->info().channels[1].conversionFactor, 0.5 / 3); // a third of it: exact
    EXPECT_EQ(r->info().channels[0].offset, -3.0);
    EXPECT_EQ(r->info().channels[0].description, "1 x Fp1 + -1 x F7");
    EXPECT_EQ(r->note(), "montage test (2 derivations)");
}

TEST(MontageRecording, APageAnywhereEqualsTheSameSamplesOfTheWhole)
{
    const montage::Montage m{"pair", {{"Cz-Fp1", "", "", {{"Cz", 1}, {"Fp1", -1}}, {}}}};
    auto r = derive(threeChannels(), m);
    ASSERT_TRUE(r);
    const std::vector<std::int32_t> whole = read(*r, 0, 0, 1000);
    for (const std::int64_t first : {std::int64_t{-20}, std::int64_t{90}, std::int64_t{990}, std::int64_t{1500}}) {
        const std::vector<std::int32_t> page = read(*r, 0, first, 40);
        for (std::int64_t i = 0; i < 40; ++i) {
            const std::int64_t at = first + i;
            ASSERT_EQ(page[static_cast<std::size_t>(i)],
                      at >= 0 && at < 1000 ? whole[static_cast<std::size_t>(at)] : kNo)
                << at;
        }
    }
}

TEST(MontageRecording, ChannelsStartingLaterAreMatchedByTime)
{
    auto source = std::make_unique<test::MemoryRecording>();
    source->addChannel("A", 100, 0, 100);
    source->addChannel("B", 100, 50'000, 100); // starts 5 samples later
    auto r = derive(std::move(source), {"", {{"A-B", "", "", {{"A", 1}, {"B", -1}}, {}}}});
    ASSERT_TRUE(r);
    const core::ChannelInfo& ch = r->info().channels[0];
    EXPECT_EQ(ch.start, 50'000);
    ASSERT_EQ(ch.gridLength, 95);
    const std::vector<std::int32_t> got = read(*r, 0, 0, 95);
    for (std::int32_t i = 0; i < 95; ++i)
        ASSERT_EQ(got[static_cast<std::size_t>(i)], (i + 5) - i) << i; // A[i+5] - B[i]
}

TEST(MontageRecording, WeightsWithoutASmallDenominatorKeepASixteenthOfAStep)
{
    const auto source = threeChannels();
    auto r = derive(threeChannels(), {"", {{"odd", "", "", {{"Cz", 0.1234567}, {"Fp1", -0.7654321}}, {}}}});
    ASSERT_TRUE(r);
    const core::ChannelInfo& ch = r->info().channels[0];
    EXPECT_EQ(ch.conversionFactor, 0.5 / 16);
    const std::vector<std::int32_t> got = read(*r, 0, 0, 1000);
    for (std::size_t i = 0; i < 1000; ++i) {
        const std::int32_t a = source->grids[2][i], b = source->grids[0][i];
        if (b == kNo) continue;
        const double want = 0.1234567 * (a * 0.5 - 2) - 0.7654321 * (b * 0.5);
        ASSERT_NEAR(physical(ch, got[i]), want, 0.5 / 32 + 1e-12) << i;
    }
}

TEST(MontageRecording, RefusesInWordsWhatCannotBeCombined)
{
    auto mixed = std::make_unique<test::MemoryRecording>();
    mixed->addChannel("Fp1", 256, 0, 100);
    mixed->addChannel("ECG", 512, 0, 200);
    mixed->description.path = "/data/r.edf";
    auto rates =
        montage::MontageRecording::create(std::move(mixed), {"", {{"x", "", "", {{"Fp1", 1}, {"ECG", -1}}, {}}}});
    ASSERT_FALSE(rates.ok());
    EXPECT_EQ(rates.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_EQ(rates.error().message, "derivation x: Fp1 is sampled at 256 Hz and ECG at 512 Hz: channels of different "
                                     "rates cannot be combined");
    EXPECT_EQ(rates.error().path, "/data/r.edf");
    auto missing = montage::MontageRecording::create(threeChannels(), {"", {{"y", "", "", {{"Pz", 1}}, {}}}});
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message, "derivation y: the recording has no channel named Pz");
    auto offGrid = std::make_unique<test::MemoryRecording>();
    offGrid->addChannel("A", 100, 0, 100);
    offGrid->addChannel("B", 100, 5'000, 100); // half a sample later
    auto grid =
        montage::MontageRecording::create(std::move(offGrid), {"", {{"A-B", "", "", {{"A", 1}, {"B", -1}}, {}}}});
    ASSERT_FALSE(grid.ok());
    EXPECT_EQ(grid.error().message, "derivation A-B: A and B are not sampled on one grid (their samples fall at "
                                    "different times)");
}

TEST(MontageRecording, SumsBeyondACountAreMissingAndWarnedNeverWrapped)
{
    auto source = std::make_unique<test::MemoryRecording>();
    source->addChannel("A", 100, 0, 10);
    source->grids[0] = {0, 1, -1, 2'000'000'000, -2'000'000'000, 0, 0, 0, 0, 0};
    montage::Derivation big{"big", "", "", {}, {}};
    for (int k = 0; k < 6; ++k) big.terms.push_back({"A", 900'000'000}); // 6 x 9e8 x 2e9: beyond int64 too
    auto r = derive(std::move(source), {"", {big}});
    ASSERT_TRUE(r);
    const std::vector<std::int32_t> got = read(*r, 0, 0, 10);
    EXPECT_EQ(got[0], 0);
    EXPECT_EQ(got[1], kNo); // 5.4e9 steps
    EXPECT_EQ(got[3], kNo); // 1.08e19 steps: an int64 sum would have wrapped
    EXPECT_EQ(got[4], kNo);
    const std::vector<std::string> warnings = r->takeWarnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], "derivation big: sums beyond 2^31 steps of 0.5 uV are written as missing");
}

// A MEF segment holds gaps of its own: a derivation's gaps come from its channels' gaps, not their segments.
TEST(MontageRecording, GapsInsideOneSegmentAreTheDerivationsGaps)
{
    auto source = threeChannels();
    for (core::ChannelInfo& ch : source->description.channels) ch.segments = {{ch.start, ch.end}}; // as MEF says
    auto r = derive(std::move(source), {"", {{"Fp1-F7", "", "", {{"Fp1", 1}, {"F7", -1}}, {}}}});
    ASSERT_TRUE(r);
    const core::ChannelInfo& ch = r->info().channels[0];
    const core::SampleGrid grid = ch.grid();
    ASSERT_EQ(ch.gaps.size(), 2u);
    EXPECT_EQ(ch.gaps[0], (core::TimeRange{grid.timeOf(100), grid.timeOf(150)}));
    EXPECT_EQ(ch.gaps[1], (core::TimeRange{grid.timeOf(300), grid.timeOf(320)}));
    EXPECT_EQ(ch.segments.size(), 3u);
    EXPECT_EQ(ch.sampleCount, 1000 - 50 - 20);
}
