// Rasters found in master times: regular, jittered, with gaps; irregular, backward and NaN times refused.
#include "core/Raster.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace lv::core;

namespace {

std::vector<double> regular(std::size_t n, double fs, double first = 0.0)
{
    std::vector<double> t(n);
    for (std::size_t i = 0; i < n; ++i) t[i] = first + static_cast<double>(i) / fs;
    return t;
}

} // namespace

TEST(Raster, RegularTimesAreOneRunAtTheirRate)
{
    const auto r = fitRaster(regular(1000, 256.0, 12.5));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->fs, 256.0);
    EXPECT_EQ(r->firstTime, 12.5);
    ASSERT_EQ(r->runs.size(), 1u);
    EXPECT_EQ(r->runs[0].count, 1000);
}

TEST(Raster, GapsSplitRunsOnTheGrid)
{
    std::vector<double> t = regular(100, 100.0);
    const std::vector<double> later = regular(50, 100.0, 3.0); // 2.01 s missing: 201 grid points
    t.insert(t.end(), later.begin(), later.end());
    const auto r = fitRaster(t);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->fs, 100.0);
    ASSERT_EQ(r->runs.size(), 2u);
    EXPECT_EQ(r->runs[1].firstRecord, 100);
    EXPECT_EQ(r->runs[1].firstGrid, 300);
    EXPECT_EQ(r->runs[1].count, 50);
}

// dSPACE's float times carry jitter of about 1e-5 of an interval, and their median interval is off by that much:
// counted over 80 intervals, a grid from the median alone drifts past the tolerance.
TEST(Raster, JitterWithinTheToleranceKeepsTheRaster)
{
    const double fs = 1.0 / 0.0123; // no whole or 6-digit rate fits 20000 samples
    std::vector<double> t = regular(20000, fs);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] += (i % 3 == 1 ? 1.6e-7 : -0.5e-7) + 0.3e-7 * (i % 2);
    const auto r = fitRaster(t);
    ASSERT_TRUE(r);
    EXPECT_NEAR(r->fs, fs, 1e-9 * fs);
    EXPECT_EQ(r->runs.size(), 1u);
}

TEST(Raster, IrregularTimesHaveNone)
{
    std::vector<double> t = regular(100, 10.0);
    t[50] += 0.01; // 10 % of an interval
    EXPECT_FALSE(fitRaster(t));
    EXPECT_FALSE(fitRaster(std::vector<double>{0.0, 0.1, 0.25, 0.3, 0.47}));
}

TEST(Raster, BackwardRepeatedOrNaNTimesHaveNone)
{
    EXPECT_FALSE(fitRaster(std::vector<double>{0.0, 0.1, 0.2, 0.1, 0.3}));
    EXPECT_FALSE(fitRaster(std::vector<double>{0.0, 0.1, 0.1, 0.2}));
    EXPECT_FALSE(fitRaster(std::vector<double>{0.0, std::nan(""), 0.2}));
    EXPECT_FALSE(fitRaster(std::vector<double>{}));
    EXPECT_FALSE(fitRaster(std::vector<double>{0.0, 5e-324, 1e-323})); // a rate beyond any double (found by fuzz_mdf4)
    EXPECT_FALSE(fitRaster(std::vector<double>{0.0, 1e300, 2e300}));
}

TEST(Raster, OneRecordIsOneHertz)
{
    const auto r = fitRaster(std::vector<double>{4.0});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->fs, 1.0);
    EXPECT_EQ(r->firstTime, 4.0);
}

TEST(Raster, RatesNearAWholeNumberAreIt)
{
    const auto r = fitRaster(regular(10001, 1000.0 * (1 + 1e-12)));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->fs, 1000.0);
    const auto short6 = fitRaster(regular(1000, 1.0 / 0.0123)); // 81.300813...: 81.3008 fits 1000 samples
    ASSERT_TRUE(short6);
    EXPECT_EQ(short6->fs, 81.3008);
    const auto odd = fitRaster(regular(100000, 1.0 / 0.0123)); // but drifts 1 % of an interval over 100000
    ASSERT_TRUE(odd);
    EXPECT_NEAR(odd->fs, 1.0 / 0.0123, 1e-9);
}

// Past 2^20 intervals the median is taken over intervals spread evenly over the span: 12 h at 64 Hz with jitter
// and three gaps still gives the rate and every run, to the record.
TEST(Raster, LongTimesKeepTheirRunsWithTheMedianOfASample)
{
    const double fs = 64.0;
    std::vector<double> t;
    t.reserve(2'800'000);
    std::int64_t point = 0;
    std::vector<RasterRun> want;
    for (const std::int64_t count : {900'000, 700'000, 1'000'000, 164'000}) {
        want.push_back(RasterRun{static_cast<std::int64_t>(t.size()), point, count});
        for (std::int64_t i = 0; i < count; ++i, ++point)
            t.push_back(static_cast<double>(point) / fs + ((point % 7) - 3) * 1e-7);
        point += 64 * 3600; // an hour without records
    }
    ASSERT_GT(t.size(), std::size_t{1} << 21);
    const auto r = fitRaster(t);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->fs, fs);
    ASSERT_EQ(r->runs.size(), want.size());
    for (std::size_t k = 0; k < want.size(); ++k) {
        EXPECT_EQ(r->runs[k].firstRecord, want[k].firstRecord) << "run " << k;
        EXPECT_EQ(r->runs[k].firstGrid, want[k].firstGrid) << "run " << k;
        EXPECT_EQ(r->runs[k].count, want[k].count) << "run " << k;
    }
}
