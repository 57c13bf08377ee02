// CSV export: header, rows on the grid, empty cells in gaps, rows left out or kept, mixed rates refused.
#include "convert/CsvExport.h"

#include "formats/mef3/MefRecording.h"
#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> lines(const fs::path& file)
{
    std::ifstream in(file);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::unique_ptr<core::Recording> open(const std::string& rel)
{
    auto r = formats::mef3::openMef3((test::testdata() / rel).string(), {});
    EXPECT_TRUE(r.ok());
    return r.ok() ? std::move(*r) : nullptr;
}

TEST(CsvExport, HeaderAndFirstRowsMatchTheTruth)
{
    auto r = open("mef3/legacy/multi_channel.mefd");
    test::TempDir dir;
    CsvOptions o;
    o.range = {r->info().start, r->info().end};
    ASSERT_TRUE(exportCsv(*r, o, (dir.path() / "o.csv").string(), {}).ok());
    const auto l = lines(dir.path() / "o.csv");
    ASSERT_EQ(l.size(), 2u + 2000u);
    EXPECT_EQ(l[0], "# units: ch1=uV ch2=uV");
    EXPECT_EQ(l[1], "time,ch1,ch2");
    EXPECT_EQ(l[2], "0,1.397,-2.21");
    EXPECT_EQ(l[3], "0.003906,3.812,20.81"); // count 3812 at 0.001 uV, not 3.8120000000000003
}

TEST(CsvExport, GapRowsAreLeftOutUnlessFilled)
{
    auto r = open("mef3/legacy/multi_segment.mefd");
    test::TempDir dir;
    CsvOptions o;
    o.range = {r->info().start, r->info().end};
    o.raw = true;
    o.time = TimeColumn::Uutc;
    ASSERT_TRUE(exportCsv(*r, o, (dir.path() / "a.csv").string(), {}).ok());
    EXPECT_EQ(lines(dir.path() / "a.csv").size(), 2u + 4000u);
    o.fillGaps = true;
    ASSERT_TRUE(exportCsv(*r, o, (dir.path() / "b.csv").string(), {}).ok());
    const auto filled = lines(dir.path() / "b.csv");
    ASSERT_EQ(filled.size(), 2u + 4256u);
    EXPECT_EQ(filled[2 + 2000], std::to_string(r->info().channels[0].grid().timeOf(2000)) + ",");
    EXPECT_EQ(filled[2], "1577836800000000,-3249");
}

TEST(CsvExport, MixedRatesAreRefusedWithAHint)
{
    // No reference session mixes rates: a stand-in recording with two rates exercises the check.
    class TwoRates final : public core::Recording {
    public:
        TwoRates()
        {
            m_info.channels.resize(2);
            m_info.channels[0].name = "a";
            m_info.channels[0].fs = 256.0;
            m_info.channels[1].name = "b";
            m_info.channels[1].fs = 512.0;
        }
        const core::RecordingInfo& info() const override { return m_info; }
        core::Status readRaw(std::span<const core::RawSlice>, const core::ReadControl&) override { return {}; }

    private:
        core::RecordingInfo m_info;
    } r;
    test::TempDir dir;
    const core::Status s = exportCsv(r, {}, (dir.path() / "x.csv").string(), {});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_EQ(s.error().message, "channels a (256 Hz) and b (512 Hz) have different sampling rates: export channels of "
                                 "one rate at a time with --channels");
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(CsvExport, IsoTimesAndARange)
{
    auto r = open("mef3/meflib/meflib_rto.mefd");
    test::TempDir dir;
    CsvOptions o;
    o.channels = {1};
    o.range = {r->info().start + 1000000, r->info().start + 1000000 + 3 * 3906};
    o.time = TimeColumn::Iso;
    ASSERT_TRUE(exportCsv(*r, o, (dir.path() / "o.csv").string(), {}).ok());
    const auto l = lines(dir.path() / "o.csv");
    ASSERT_EQ(l.size(), 2u + 3u);
    EXPECT_EQ(l[1], "time,LA2");
    EXPECT_EQ(l[2].substr(0, 33), "2024-01-01T10:00:01.000000+00:00,");
}

TEST(CsvExport, CancelledExportLeavesNoFile)
{
    auto r = open("mef3/meflib/meflib_rto.mefd");
    test::TempDir dir;
    core::CancelToken cancel;
    cancel.cancel();
    core::ReadControl control;
    control.cancel = &cancel;
    CsvOptions o;
    o.range = {r->info().start, r->info().end};
    const core::Status s = exportCsv(*r, o, (dir.path() / "o.csv").string(), control);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, core::ErrorCode::Cancelled);
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

} // namespace
} // namespace lv::convert
