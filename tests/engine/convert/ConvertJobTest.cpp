// One conversion job end to end on another format's input: an MDF 4 file to a MEF 3.0 session, names that would be
// folders made safe and said, every sample read back as the MDF file gives it; irregular channels only resampled.
#include "support/TestSupport.h"

#include "convert/ConvertJob.h"
#include "convert/RenamedRecording.h"
#include "convert/ResampledRecording.h"
#include "formats/RecordingOpener.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

std::unique_ptr<core::Recording> open(const std::string& path)
{
    auto r = formats::openRecording({path, "", ""});
    EXPECT_TRUE(r.ok()) << r.error().describe();
    return r ? std::move(*r) : nullptr;
}

std::vector<std::int32_t> everySample(core::Recording& r, std::size_t channel)
{
    std::vector<std::int32_t> out(static_cast<std::size_t>(r.info().channels[channel].gridLength));
    const core::RawSlice slice{channel, 0, out};
    EXPECT_TRUE(r.readRaw({&slice, 1}, {}).ok());
    return out;
}

TEST(ConvertJob, Mdf4ToMefKeepsEverySampleAndMakesNamesFolderSafe)
{
    test::TempDir dir;
    ConvertJob job;
    job.inputs = {(test::testdata() / "mdf4/dSPACE_CaptureBlocks.mf4").string()};
    job.output = (dir.path() / "d.mefd").string();
    const JobResult result = runConvertJob(job, {});
    ASSERT_TRUE(result.ok) << result.error.describe();
    EXPECT_NE(std::find(result.warnings.begin(), result.warnings.end(),
                        "channel \"Model Root/SigGenOut\" is written as \"Model Root_SigGenOut\": a MEF channel is "
                        "a folder of its name"),
              result.warnings.end());
    auto source = open(job.inputs[0]);
    auto copy = open(job.output);
    ASSERT_TRUE(source && copy);
    ASSERT_EQ(copy->info().channels.size(), source->info().channels.size());
    for (std::size_t c = 0; c < source->info().channels.size(); ++c) {
        const core::ChannelInfo& from = source->info().channels[c];
        std::string name = from.name;
        std::replace(name.begin(), name.end(), '/', '_');
        const int k = copy->info().channelIndex(name);
        ASSERT_GE(k, 0) << name;
        const core::ChannelInfo& to = copy->info().channels[static_cast<std::size_t>(k)];
        EXPECT_EQ(to.fs, from.fs);
        EXPECT_EQ(to.start, from.start);
        EXPECT_EQ(to.conversionFactor, from.conversionFactor);
        EXPECT_EQ(to.gaps.size(), from.gaps.size());
        EXPECT_EQ(everySample(*copy, static_cast<std::size_t>(k)), everySample(*source, c)) << name;
    }
}

TEST(ConvertJob, IrregularChannelsGoToAGridFormatOnlyResampled)
{
    test::TempDir dir;
    ConvertJob job;
    job.inputs = {(test::testdata() / "mdf4/ASAP2_Demo_V171.mf4").string()};
    job.output = (dir.path() / "a.mefd").string();
    const std::vector<std::string> names{"ASAM.M.SCALAR.SWORD.IDENTICAL", "ASAM.M.SCALAR.UBYTE.IDENTICAL"};
    job.selection.channels = names[0] + "," + names[1];
    const JobResult refused = runConvertJob(job, {});
    ASSERT_FALSE(refused.ok);
    EXPECT_EQ(refused.error.describe(),
              job.inputs[0] + ": channel ASAM.M.SCALAR.SWORD.IDENTICAL is sampled at irregular times and MEF 3.0 "
                              "session needs a sampling grid: give --resample RATE (and --hold MAX_GAP), or leave the "
                              "channel out");
    EXPECT_FALSE(std::filesystem::exists(job.output));

    job.resample = {1000.0, 5000};
    const JobResult result = runConvertJob(job, {});
    ASSERT_TRUE(result.ok) << result.error.describe();
    EXPECT_NE(std::find(result.warnings.begin(), result.warnings.end(),
                        "channel ASAM.M.SCALAR.SWORD.IDENTICAL: sampled at irregular times (median 1000 Hz), "
                        "resampled to 1000 Hz, each value held at most 0.005 s and never across a longer gap"),
              result.warnings.end());
    auto source = open(job.inputs[0]);
    auto copy = open(job.output);
    ASSERT_TRUE(source && copy);
    for (const std::string& name : names) {
        const auto c = static_cast<std::size_t>(source->info().channelIndex(name));
        auto expected = ResampledRecording::create(open(job.inputs[0]), job.resample, {c}, {});
        ASSERT_TRUE(expected.ok());
        const int k = copy->info().channelIndex(name);
        ASSERT_GE(k, 0);
        const core::ChannelInfo& to = copy->info().channels[static_cast<std::size_t>(k)];
        const core::ChannelInfo& want = (*expected)->info().channels[c];
        EXPECT_EQ(to.fs, 1000.0);
        EXPECT_EQ(to.start, want.start);
        EXPECT_EQ(to.gaps, want.gaps);
        EXPECT_EQ(everySample(*copy, static_cast<std::size_t>(k)), everySample(**expected, c)) << name;
        // Each value is the source's sample at or before the grid point, at most 5 ms old.
        auto times = core::readTimed(*source, c, {source->info().start, source->info().end}, {});
        ASSERT_TRUE(times.ok());
        const std::vector<std::int32_t> got = everySample(*copy, static_cast<std::size_t>(k));
        for (std::size_t j = 0; j < got.size(); j += 97) {
            const std::int64_t t = core::usToNs(to.grid().timeOf(static_cast<std::int64_t>(j)));
            const auto after = std::upper_bound(times->timesNs.begin(), times->timesNs.end(), t);
            const std::size_t i = static_cast<std::size_t>(after - times->timesNs.begin());
            const bool held = i > 0 && t - times->timesNs[i - 1] < 5'000'000;
            ASSERT_EQ(got[j], held ? times->raw[i - 1] : core::kNoSample) << name << " grid point " << j;
        }
    }
}

// MEF 3.0 -> MDF 4 -> MEF 3.0: counts, factors, grids, gaps and annotations come back exactly.
class MefThroughMdf4 : public ::testing::TestWithParam<const char*> {};

TEST_P(MefThroughMdf4, AndBackIsExact)
{
    test::TempDir dir;
    const std::string source = (test::testdata() / "mef3/legacy" / GetParam()).string();
    const std::string mdf = (dir.path() / "a.mf4").string(), back = (dir.path() / "b.mefd").string();
    for (const auto& [from, to] : {std::pair{source, mdf}, std::pair{mdf, back}}) {
        ConvertJob job;
        job.inputs = {from};
        job.output = to;
        const JobResult result = runConvertJob(job, {});
        ASSERT_TRUE(result.ok) << result.error.describe();
    }
    auto a = open(source), m = open(mdf), b = open(back);
    ASSERT_TRUE(a && m && b);
    EXPECT_EQ(m->info().format, "MDF 4.10");
    for (core::Recording* copy : {m.get(), b.get()}) {
        ASSERT_EQ(copy->info().channels.size(), a->info().channels.size());
        for (std::size_t c = 0; c < a->info().channels.size(); ++c) {
            const core::ChannelInfo& x = a->info().channels[c];
            const core::ChannelInfo& y = copy->info().channels[c];
            EXPECT_EQ(y.name, x.name);
            EXPECT_EQ(y.fs, x.fs);
            EXPECT_EQ(y.start, x.start);
            EXPECT_EQ(y.conversionFactor, x.conversionFactor);
            EXPECT_EQ(y.gaps.size(), x.gaps.size());
            EXPECT_EQ(everySample(*copy, c), everySample(*a, c)) << x.name;
        }
        ASSERT_EQ(copy->info().annotations.size(), a->info().annotations.size());
        for (std::size_t i = 0; i < a->info().annotations.size(); ++i) {
            EXPECT_EQ(copy->info().annotations[i].time, a->info().annotations[i].time);
            EXPECT_EQ(copy->info().annotations[i].type, a->info().annotations[i].type);
            EXPECT_EQ(copy->info().annotations[i].text, a->info().annotations[i].text);
            EXPECT_EQ(copy->info().annotations[i].channel, a->info().annotations[i].channel);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Legacy, MefThroughMdf4,
                         ::testing::Values("nan_gap_long.mefd", "with_annotations.mefd", "multi_channel.mefd"));

TEST(FolderSafeNames, SlashesBecomeUnderscoresWithoutClashing)
{
    core::RecordingInfo info;
    for (const char* name : {"a/b", "a_b", "c\\d", "plain"}) {
        info.channels.emplace_back();
        info.channels.back().name = name;
    }
    const std::map<std::string, std::string> expected = {{"a/b", "a_b 2"}, {"c\\d", "c_d"}};
    EXPECT_EQ(folderSafeNames(info), expected);
}

} // namespace
} // namespace lv::convert
