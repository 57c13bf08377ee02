// Irregular channels written to MDF 4 as their own data groups at their own times: read back by our reader and by
// mdf-check to the source's times (to the ns) and values.
#include "convert/Mdf4Export.h"

#include "engine/formats/mdf4/Mdf4Oracle.h"
#include "formats/mdf4/Mdf4Recording.h"
#include "support/IrregularRecording.h"
#include "support/TestSupport.h"

#include <cmath>
#include <gtest/gtest.h>

namespace lv::convert {
namespace {

namespace mdf4 = formats::mdf4;
namespace oracle = lv::test::mdf4;

core::TimedSamples everything(core::Recording& r, std::size_t c)
{
    auto got = core::readTimed(r, c, {r.info().start, r.info().end + 1}, {});
    EXPECT_TRUE(got.ok()) << got.error().describe();
    return got.ok() ? std::move(*got) : core::TimedSamples{};
}

} // namespace

TEST(Mdf4ExportIrregular, ChannelGroupsOffAnyRasterComeBackAtTheirOwnTimes)
{
    test::TempDir dir;
    const std::string source = oracle::dataDir() + "/ASAP2_Demo_V171.mf4";
    auto in = mdf4::openMdf4(source);
    ASSERT_TRUE(in.ok()) << in.error().describe();
    Selection all{{}, {(*in)->info().start, (*in)->info().end + 1}};
    const std::string output = (dir.path() / "a.mf4").string();
    auto written = exportMdf4(**in, all, {}, output, {});
    ASSERT_TRUE(written.ok()) << written.error().describe();
    auto back = mdf4::openMdf4(output);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    std::size_t irregular = 0;
    for (std::size_t c = 0; c < (*in)->info().channels.size(); ++c) {
        const core::ChannelInfo& from = (*in)->info().channels[c];
        const int k = (*back)->info().channelIndex(from.name);
        ASSERT_GE(k, 0) << from.name;
        const core::ChannelInfo& to = (*back)->info().channels[static_cast<std::size_t>(k)];
        ASSERT_EQ(to.irregular, from.irregular) << from.name;
        if (!from.irregular) continue;
        ++irregular;
        EXPECT_EQ(to.sampleCount, from.sampleCount);
        EXPECT_EQ(to.segments, from.segments);
        EXPECT_NE(to.group.find(from.group), std::string::npos) << to.group; // the source's group as the comment
        const core::TimedSamples want = everything(**in, c), got = everything(**back, static_cast<std::size_t>(k));
        ASSERT_EQ(got.timesNs, want.timesNs) << from.name;
        for (std::size_t i = 0; i < want.raw.size(); ++i) {
            if (want.raw[i] == core::kNoSample) {
                ASSERT_EQ(got.raw[i], core::kNoSample) << from.name << " sample " << i;
                continue;
            }
            ASSERT_EQ(got.raw[i] * to.conversionFactor + to.offset, want.raw[i] * from.conversionFactor + from.offset)
                << from.name << " sample " << i;
        }
    }
    EXPECT_EQ(irregular, 33u);

    // mdf-check reads the same times, absolute to the ns, and values, as in the source.
    int status = 0;
    const auto ours = oracle::dump(output, "ASAM.M.SCALAR.SWORD.IDENTICAL", 2, &status);
    ASSERT_EQ(status, 0);
    const auto theirs = oracle::dump(source, "ASAM.M.SCALAR.SWORD.IDENTICAL", 2, &status);
    ASSERT_EQ(ours.size(), theirs.size());
    const std::int64_t ourStart = (*back)->structure().startNs, theirStart = (*in)->structure().startNs;
    for (std::size_t i = 0; i < ours.size(); ++i) {
        ASSERT_EQ(ourStart + std::llround(ours[i].time * 1e9), theirStart + std::llround(theirs[i].time * 1e9))
            << "row " << i;
        ASSERT_EQ(ours[i].number, theirs[i].number) << "row " << i;
    }
}

TEST(Mdf4ExportIrregular, ASampleWhoseValuesAreAllInvalidIsStillARecord)
{
    test::IrregularRecording r;
    r.addChannel("can", {1'000'000'000'000, 1'000'000'500'123, 1'000'003'000'000}, {4, core::kNoSample, -6}, 2, 0.25);
    test::TempDir dir;
    const std::string output = (dir.path() / "c.mf4").string();
    auto written = exportMdf4(r, {{}, {r.info().start, r.info().end}}, {}, output, {});
    ASSERT_TRUE(written.ok()) << written.error().describe();
    auto back = mdf4::openMdf4(output);
    ASSERT_TRUE(back.ok()) << back.error().describe();
    const core::ChannelInfo& ch = (*back)->info().channels.at(0);
    EXPECT_TRUE(ch.irregular);
    const core::TimedSamples got = everything(**back, 0);
    EXPECT_EQ(got.timesNs, (std::vector<std::int64_t>{1'000'000'000'000, 1'000'000'500'123, 1'000'003'000'000}));
    EXPECT_EQ(got.raw, (std::vector<std::int32_t>{4, core::kNoSample, -6}));
    EXPECT_EQ(ch.conversionFactor, 0.25);
}

} // namespace lv::convert
