// EdfResolution and OutputEstimate: the step EDF+/BDF+ would keep per channel, from the data, equals what the
// writer then writes and warns about; the estimate is samples times the documented bytes and rates.
#include "convert/EdfResolution.h"
#include "convert/OutputEstimate.h"

#include "support/MemoryRecording.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

constexpr core::Uutc kStart = 1'700'000'000'000'000;

test::MemoryRecording twoChannels()
{
    test::MemoryRecording r;
    r.addChannel("small", 256, kStart, 2560, 1);   // counts 0..999: EDF keeps every step
    r.addChannel("wide", 256, kStart, 2560, 1000); // counts 0..999000: 16 bits cannot
    return r;
}

TEST(EdfResolution, FromTheDataAsTheWriterChoosesIt)
{
    test::MemoryRecording r = twoChannels();
    EdfExportOptions o;
    o.range = {r.info().start, r.info().end};
    auto res = edfResolution(r, o, {});
    ASSERT_TRUE(res.ok()) << res.error().message;
    ASSERT_EQ(res->size(), 2u);
    EXPECT_EQ((*res)[0].channel, "small");
    EXPECT_DOUBLE_EQ((*res)[0].sourceStep, 0.5);
    EXPECT_FALSE((*res)[0].edfLoses());
    EXPECT_NEAR((*res)[0].edfCoarser(), 1.0, 1e-6);
    EXPECT_TRUE((*res)[1].edfLoses());
    EXPECT_NEAR((*res)[1].edfCoarser(), 999000.0 / 65533.0, 0.2); // the range over the 16-bit steps
    EXPECT_FALSE((*res)[1].bdfLoses());

    // The writer's warning names the same step.
    test::TempDir dir;
    o.bdf = false;
    auto written = exportEdf(r, o, (dir.path() / "o.edf").string(), {});
    ASSERT_TRUE(written.ok());
    ASSERT_EQ(written->warnings.size(), 1u);
    char step[32];
    std::snprintf(step, sizeof step, "steps of %.4g uV", (*res)[1].edfStep);
    EXPECT_NE(written->warnings[0].find(step), std::string::npos) << written->warnings[0] << " / " << step;
}

TEST(OutputEstimate, SamplesTimesBytesOverTheRate)
{
    test::MemoryRecording r = twoChannels();
    const Selection all{{0, 1}, {r.info().start, r.info().end}};
    const OutputEstimate edf = estimateOutput("edf", r.info(), all, 1);
    EXPECT_EQ(edf.samples, 5120);
    EXPECT_EQ(edf.bytes, 10240u);
    EXPECT_DOUBLE_EQ(edf.seconds, 5120 / 54.1e6);
    EXPECT_DOUBLE_EQ(estimateOutput("edf", r.info(), all, 4).seconds, 5120 / 79.5e6); // two threads or more
    EXPECT_EQ(estimateOutput("bdf", r.info(), all, 2).bytes, 15360u);
    EXPECT_DOUBLE_EQ(estimateOutput("csv", r.info(), all, 2).seconds, 5120 / 26.7e6);
    const Selection half{{1}, {r.info().start, r.info().start + 5'000'000}};
    EXPECT_EQ(estimateOutput("mefd", r.info(), half, 1).samples, 1280);
    EXPECT_EQ(estimateOutput("xyz", r.info(), all, 1).bytes, 0u);
}

} // namespace
} // namespace lv::convert
