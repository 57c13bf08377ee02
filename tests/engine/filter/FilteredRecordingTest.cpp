// Filtered channels of a recording: each run between gaps equals scipy.signal on its own (within half a count), a
// page read alone equals the whole channel's values, a step across a gap leaves no trace on the other side, the
// description says the filter, and what cannot be filtered is refused in words.
#include "filter/FilteredRecording.h"

#include "ScipyReference.h"
#include "support/IrregularRecording.h"
#include "support/MemoryRecording.h"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

using namespace lv;

namespace {

constexpr double kFs = 256;
constexpr std::int64_t kSamples = 256 * 40, kGapFrom = 4000, kGapTo = 4300;
constexpr std::int32_t kNo = core::kNoSample;

// Channel 0 "eeg": 10 Hz, 50 Hz mains and a drift in counts of 0.5 uV (offset 100 uV), missing in [4000, 4300).
// Channel 1 "raw": the same counts, not filtered.
std::unique_ptr<test::MemoryRecording> eegWithAGap()
{
    auto r = std::make_unique<test::MemoryRecording>();
    for (const char* name : {"eeg", "raw"}) {
        r->addChannel(name, kFs, 1'000'000, kSamples, 1, kGapFrom, kGapTo);
        r->description.channels.back().offset = 100;
        std::vector<std::int32_t>& grid = r->grids.back();
        for (std::int64_t i = 0; i < kSamples; ++i) {
            const double t = static_cast<double>(i) / kFs;
            const double uv = 40 * std::sin(2 * std::numbers::pi * 10 * t) +
                              20 * std::sin(2 * std::numbers::pi * 50 * t) + 30 * t + (i == 2000 ? 300 : 0);
            if (grid[static_cast<std::size_t>(i)] != kNo)
                grid[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(std::lround(uv / 0.5));
        }
    }
    return r;
}

filter::FilterSpec spec(const std::string& text)
{
    auto s = filter::parseFilterSpec(text);
    EXPECT_TRUE(s.ok()) << s.error().describe();
    return s.ok() ? *s : filter::FilterSpec{};
}

std::unique_ptr<filter::FilteredRecording> filtered(std::unique_ptr<core::Recording> inner, const std::string& text,
                                                    std::vector<std::size_t> channels = {0})
{
    auto r = filter::FilteredRecording::create(std::move(inner), spec(text), channels);
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r.ok() ? std::move(*r) : nullptr;
}

std::vector<std::int32_t> read(core::Recording& r, std::size_t channel, std::int64_t first, std::int64_t count)
{
    std::vector<std::int32_t> out(static_cast<std::size_t>(count));
    const core::RawSlice slice{channel, first, out};
    const core::Status s = r.readRaw({&slice, 1}, {});
    EXPECT_TRUE(s.ok()) << s.error().describe();
    return out;
}

} // namespace

TEST(FilteredRecording, EachRunBetweenGapsEqualsScipyWithinHalfACount)
{
    const auto source = eegWithAGap();
    const std::vector<std::int32_t> counts = source->grids[0];
    auto r = filtered(eegWithAGap(), "hp=0.5,lp=70,notch=50,order=4");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->info().channels[0].offset, 0.0); // 100 uV through a high-pass: 0
    const std::vector<std::int32_t> got = read(*r, 0, 0, kSamples);
    const nlohmann::json filters = {{{"band", "highpass"}, {"order", 4}, {"hz", 0.5}},
                                    {{"band", "lowpass"}, {"order", 4}, {"hz", 70}},
                                    {{"band", "notch"}, {"hz", 50}, {"q", 30}}};
    for (const auto& [from, to] : {std::pair{std::int64_t{0}, kGapFrom}, std::pair{kGapTo, kSamples}}) {
        std::vector<double> physical;
        for (std::int64_t i = from; i < to; ++i) physical.push_back(counts[static_cast<std::size_t>(i)] * 0.5 + 100);
        const nlohmann::json ref = test::scipyFilter(kFs, filters, {1}, physical);
        ASSERT_TRUE(ref.is_object()) << "scipy_filter.py failed";
        for (std::int64_t i = from; i < to; ++i)
            ASSERT_NEAR(got[static_cast<std::size_t>(i)] * 0.5, ref["zero"][static_cast<std::size_t>(i - from)], 0.25)
                << "sample " << i;
    }
    for (std::int64_t i = kGapFrom; i < kGapTo; ++i) ASSERT_EQ(got[static_cast<std::size_t>(i)], kNo) << i;
    EXPECT_EQ(read(*r, 1, 0, kSamples), counts); // not selected: as recorded
}

TEST(FilteredRecording, APageReadAloneEqualsTheWholeChannelWithinACount)
{
    auto r = filtered(eegWithAGap(), "hp=0.5,lp=35,notch=50");
    ASSERT_TRUE(r);
    const std::vector<std::int32_t> whole = read(*r, 0, 0, kSamples);
    for (const std::int64_t first : {std::int64_t{0}, std::int64_t{2560}, std::int64_t{3900}, std::int64_t{7680}}) {
        const std::vector<std::int32_t> page = read(*r, 0, first, 2560);
        for (std::size_t i = 0; i < page.size(); ++i) {
            const std::int32_t want = whole[static_cast<std::size_t>(first) + i];
            if (want == kNo)
                ASSERT_EQ(page[i], kNo) << first << "+" << i;
            else
                ASSERT_LE(std::abs(page[i] - want), 1) << "page at " << first << ", sample " << i;
        }
    }
}

TEST(FilteredRecording, AStepAcrossAGapLeavesNoTraceOnEitherSide)
{
    auto source = std::make_unique<test::MemoryRecording>();
    source->addChannel("step", kFs, 0, 6000, 1, 3000, 3100);
    for (std::size_t i = 0; i < 6000; ++i)
        if (source->grids[0][i] != kNo) source->grids[0][i] = i < 3000 ? 0 : 2000;
    auto r = filtered(std::move(source), "hp=1,lp=30,order=4");
    ASSERT_TRUE(r);
    const std::vector<std::int32_t> got = read(*r, 0, 0, 6000);
    for (std::size_t i = 0; i < 6000; ++i) ASSERT_EQ(got[i], i >= 3000 && i < 3100 ? kNo : 0) << "sample " << i;
}

TEST(FilteredRecording, TheDescriptionSaysTheFilter)
{
    auto r = filtered(eegWithAGap(), "lp=70,notch=50,harmonics=2");
    ASSERT_TRUE(r);
    const core::ChannelInfo& eeg = r->info().channels[0];
    EXPECT_EQ(eeg.prefilter, "LP:70Hz N:50Hz");
    EXPECT_DOUBLE_EQ(eeg.offset, 100.0); // a low-pass and notches keep a constant
    EXPECT_EQ(r->info().channels[1].prefilter, "");
    EXPECT_EQ(r->note(), "filtered lp=70,notch=50,harmonics=2 (zero-phase, restarted at every gap)");
    EXPECT_EQ(filter::edfPrefilter(spec("hp=0.5,bs=45-55,notch=60")), "HP:0.5Hz BS:45-55Hz N:60Hz");
    EXPECT_EQ(filter::edfPrefilter(spec("bp=1-40")), "HP:1Hz LP:40Hz");
    auto causal = filtered(eegWithAGap(), "hp=1,causal");
    ASSERT_TRUE(causal);
    EXPECT_EQ(causal->note(), "filtered hp=1,causal (causal, restarted at every gap)");
}

TEST(FilteredRecording, RefusesInWordsWhatCannotBeFiltered)
{
    auto tooHigh = filter::FilteredRecording::create(eegWithAGap(), spec("lp=200"), {0});
    ASSERT_FALSE(tooHigh.ok());
    EXPECT_EQ(tooHigh.error().message,
              "channel eeg: a filter edge at 200 Hz must lie between 0 and half the sample rate (128 Hz)");
    auto can = std::make_unique<test::IrregularRecording>();
    can->addChannel("speed", {0, 1'000'000, 3'000'000, 3'500'000}, {1, 2, 3, 4});
    auto irregular = filter::FilteredRecording::create(std::move(can), spec("lp=10"), {0});
    ASSERT_FALSE(irregular.ok());
    EXPECT_EQ(irregular.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_EQ(irregular.error().message, "channel speed: it is sampled at irregular times, and a filter needs a "
                                         "sampling grid: give --resample RATE too");
}

// Ten channels read in one call (filtered side by side, 8 and 2 to a group) equal each channel read alone, count for
// count: no channel takes another's values, gaps and all.
TEST(FilteredRecording, ChannelsReadTogetherEqualEachReadAlone)
{
    const auto make = [] {
        auto r = std::make_unique<test::MemoryRecording>();
        for (int c = 0; c < 10; ++c) {
            const bool gap = c % 3 == 0;
            r->addChannel("ch" + std::to_string(c), kFs, 1'000'000, kSamples, 1, gap ? kGapFrom : 0, gap ? kGapTo : 0);
            std::vector<std::int32_t>& grid = r->grids.back();
            for (std::int64_t i = 0; i < kSamples; ++i)
                if (grid[static_cast<std::size_t>(i)] != kNo)
                    grid[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(
                        std::lround(200 * std::sin(2 * std::numbers::pi * (3 + c) * static_cast<double>(i) / kFs) +
                                    (i % (50 + c)) * (c + 1)));
        }
        return r;
    };
    std::vector<std::size_t> all(10);
    for (std::size_t c = 0; c < all.size(); ++c) all[c] = c;
    auto r = filtered(make(), "hp=0.5,lp=35,notch=50", all);
    ASSERT_TRUE(r);
    std::vector<std::vector<std::int32_t>> together(all.size(), std::vector<std::int32_t>(2560));
    std::vector<core::RawSlice> slices;
    for (std::size_t c = 0; c < all.size(); ++c) slices.push_back({c, 3000, together[c]});
    ASSERT_TRUE(r->readRaw(slices, {}).ok());
    for (std::size_t c = 0; c < all.size(); ++c) EXPECT_EQ(together[c], read(*r, c, 3000, 2560)) << "channel " << c;
}
