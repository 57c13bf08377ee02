// A channel's spectrogram: each column is the Welch spectrum of its own samples, columns in a gap are empty (not
// interpolated), the first columns match a direct computation, progress reaches the end, and a cancel stops it.
#include "spectrum/Spectrogram.h"

#include "support/MemoryRecording.h"

#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

using namespace lv;

namespace {

// 60 s at 256 Hz from t = 1 s, a 12 Hz sine of 400 counts (0.5 uV each), missing in [20.5 s, 27 s).
std::unique_ptr<test::MemoryRecording> withGap()
{
    auto r = std::make_unique<test::MemoryRecording>();
    r->addChannel("C3", 256, 1'000'000, 256 * 60, 1, 5248, 6912);
    for (std::size_t i = 0; i < r->grids[0].size(); ++i)
        if (r->grids[0][i] != core::kNoSample)
            r->grids[0][i] =
                static_cast<std::int32_t>(std::lround(400 * std::sin(2 * std::numbers::pi * 12 * i / 256.0)));
    return r;
}

spectrum::SpectrogramOptions options() { return {4, {512, 0.5, spectrum::Window::Hann}}; }

} // namespace

TEST(Spectrogram, ColumnsAreWelchSpectraAndEmptyInAGap)
{
    auto r = withGap();
    std::vector<std::pair<std::uint64_t, std::uint64_t>> progress;
    core::ReadControl control;
    control.progress = [&](std::uint64_t done, std::uint64_t total) { progress.emplace_back(done, total); };
    auto s = spectrum::computeSpectrogram(*r, 0, {0, 100'000'000}, options(), control);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    EXPECT_EQ(s->start, 1'000'000);
    EXPECT_EQ(s->columnUs, 4'000'000);
    ASSERT_EQ(s->columns.size(), 15u);
    ASSERT_EQ(s->frequencies.size(), 257u);
    EXPECT_EQ(s->frequencies[24], 12.0);
    for (std::size_t c = 0; c < 15; ++c) {
        const bool inGap = c == 5 || c == 6; // [20 s, 24 s) holds 0.5 s, [24 s, 28 s) 1 s: less than a segment
        EXPECT_EQ(s->columns[c].empty(), inGap) << "column " << c;
        if (inGap) continue;
        std::vector<double> values;
        for (std::size_t i = c * 1024; i < (c + 1) * 1024; ++i)
            values.push_back(r->grids[0][i] == core::kNoSample ? std::nan("") : r->grids[0][i] * 0.5);
        auto psd = spectrum::welch(values, 256, options().welch);
        ASSERT_TRUE(psd.ok());
        EXPECT_EQ(s->segments[c], psd->segments) << c;
        for (std::size_t k = 0; k < psd->power.size(); ++k)
            ASSERT_NEAR(s->columns[c][k], psd->power[k], 1e-6 * psd->power[24] + 1e-30) << c << ", bin " << k;
        const auto peak = std::max_element(s->columns[c].begin(), s->columns[c].end()) - s->columns[c].begin();
        EXPECT_EQ(peak, 24) << c; // 12 Hz
    }
    EXPECT_EQ(s->segments[4], 3u); // [16 s, 20 s): whole
    EXPECT_EQ(s->segments[7], 3u);
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back(), (std::pair<std::uint64_t, std::uint64_t>{15, 15}));
}

TEST(Spectrogram, CancelsAndRefusesInWords)
{
    auto r = withGap();
    core::CancelToken cancel;
    cancel.cancel();
    core::ReadControl control;
    control.cancel = &cancel;
    auto cancelled = spectrum::computeSpectrogram(*r, 0, {0, 100'000'000}, options(), control);
    ASSERT_FALSE(cancelled.ok());
    EXPECT_EQ(cancelled.error().code, core::ErrorCode::Cancelled);
    auto tooShort = spectrum::computeSpectrogram(*r, 0, {0, 100'000'000}, {1, {512, 0.5, spectrum::Window::Hann}}, {});
    ASSERT_FALSE(tooShort.ok());
    EXPECT_EQ(tooShort.error().message, "spectrogram of C3: a column of 256 samples is shorter than a segment (512)");
}
