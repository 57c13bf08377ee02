// Reference file sets, MNE's reading of them and ours.
#include "BvTestSupport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <memory>

namespace lv::formats::brainvision::test {

namespace fs = std::filesystem;

const fs::path& referenceFolder()
{
    static const std::unique_ptr<lv::test::TempDir> dir = [] {
        auto d = std::make_unique<lv::test::TempDir>();
        std::string output;
        const int status = lv::test::run(
            "/usr/bin/python3 " LONGVIEW_BV_TEST_DIR "/make_reference.py '" + d->path().string() + "' 2>&1", &output);
        EXPECT_EQ(status, 0) << output;
        return d;
    }();
    return dir->path();
}

std::string referenceHeader(const std::string& name) { return (referenceFolder() / name / (name + ".vhdr")).string(); }

nlohmann::json referenceTruth(const std::string& name)
{
    std::ifstream in(referenceFolder() / name / "truth.json");
    return nlohmann::json::parse(in);
}

MneReading readWithMne(const std::string& header)
{
    return lv::test::runPythonDump(LONGVIEW_BV_TEST_DIR "/mne_bv_dump.py", header);
}

std::vector<std::vector<double>> dataPointValues(core::Recording& recording)
{
    const core::RecordingInfo& info = recording.info();
    std::vector<std::vector<double>> out;
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        const core::ChannelInfo& ch = info.channels[c];
        core::ChannelSamples s;
        s.channel = c;
        s.raw.assign(static_cast<std::size_t>(ch.gridLength), 0x5a5a5a5a); // readRaw writes every sample
        const core::RawSlice slice{c, 0, s.raw};
        const core::Status st = recording.readRaw(std::span(&slice, 1), {});
        EXPECT_TRUE(st.ok()) << st.error().describe();
        const std::vector<double> all = core::toPhysical(s, ch.conversionFactor, ch.offset);
        std::vector<double> points;
        for (const core::TimeRange& segment : ch.segments) {
            const core::SampleSpan span = core::sampleSpan(ch, segment);
            for (std::int64_t i = span.first; i < span.first + span.count; ++i)
                points.push_back(all[static_cast<std::size_t>(i)]);
        }
        out.push_back(std::move(points));
    }
    return out;
}

} // namespace lv::formats::brainvision::test
