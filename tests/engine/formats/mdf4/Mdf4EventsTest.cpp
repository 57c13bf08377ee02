// Events (EV) against mdf-check's listing run at test time, range begin/end pairs as spans; sources (SI) and sample
// reductions (SR) as the files hold them.
#include "Mdf4Oracle.h"

#include "formats/mdf4/Mdf4Events.h"
#include "io/ByteSource.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace lv::formats::mdf4;
namespace oracle = lv::test::mdf4;

namespace {

struct Opened {
    lv::io::ByteSourcePtr file;
    Structure structure;
};

Opened open(const std::string& name)
{
    auto file = lv::io::openFile(oracle::dataDir() + "/" + name);
    EXPECT_TRUE(file.ok());
    auto s = readStructure(**file);
    EXPECT_TRUE(s.ok()) << s.error().describe();
    return {std::move(*file), s.ok() ? *s : Structure{}};
}

class Mdf4Events : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(Mdf4Events, EqualMdfChecksListing)
{
    const Opened o = open(GetParam());
    auto events = readEvents(*o.file, o.structure);
    ASSERT_TRUE(events.ok()) << events.error().describe();
    const auto want = nlohmann::json::parse(oracle::listingJson(oracle::dataDir() + "/" + GetParam()))["events"];
    ASSERT_EQ(events->size(), want.size());
    ASSERT_FALSE(events->empty());
    for (std::size_t i = 0; i < events->size(); ++i) {
        const Event& e = (*events)[i];
        const auto& w = want[i];
        SCOPED_TRACE("event " + std::to_string(i));
        EXPECT_EQ(eventTypeName(e.type), w["type"].get<std::string>());
        EXPECT_EQ(eventSyncName(e.syncType), w["sync_type"].get<std::string>());
        EXPECT_EQ(eventRangeName(e.rangeType), w["range_type"].get<std::string>());
        EXPECT_EQ(eventCauseName(e.cause), w["cause"].get<std::string>());
        EXPECT_EQ(e.value, w["value"].get<double>());
        EXPECT_EQ(e.syncBase, w["sync_base_value"].get<std::int64_t>());
        EXPECT_EQ(e.syncFactor, w["sync_factor"].get<double>());
        EXPECT_EQ(e.name, w["name"].get<std::string>());
        EXPECT_EQ(e.comment, w["comment"].get<std::string>());
        EXPECT_EQ(e.scopeCount, w["scope_count"].get<std::uint32_t>());
        EXPECT_EQ(e.parent != 0, w["has_parent"].get<bool>());
        EXPECT_EQ(e.range != 0, w["has_range"].get<bool>());
    }
}

INSTANTIATE_TEST_SUITE_P(Files, Mdf4Events,
                         ::testing::Values("dSPACE_CaptureBlocks.mf4", "ASAP2_Demo_V171.mf4",
                                           "asammdf_two_rates_dz.mf4"),
                         [](const auto& info) {
                             std::string name = info.param;
                             for (char& ch : name)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return name;
                         });

TEST(Mdf4Events, RangeBeginAndEndBecomeOneSpan)
{
    const Opened o = open("dSPACE_CaptureBlocks.mf4");
    auto events = readEvents(*o.file, o.structure);
    ASSERT_TRUE(events.ok());
    ASSERT_EQ(events->size(), 6u);
    const auto spans = eventSpans(*events);
    ASSERT_EQ(spans.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        const Event& begin = (*events)[spans[i].event];
        const Event& end = (*events)[2 * i + 1];
        EXPECT_TRUE(begin.isRangeBegin());
        EXPECT_EQ(end.range, begin.offset);
        EXPECT_EQ(spans[i].start, begin.value);
        EXPECT_EQ(spans[i].duration, end.value - begin.value);
        EXPECT_GT(spans[i].duration, 2.9);
    }
    const Opened points = open("ASAP2_Demo_V171.mf4");
    auto markers = readEvents(*points.file, points.structure);
    ASSERT_TRUE(markers.ok());
    const auto pointSpans = eventSpans(*markers);
    ASSERT_EQ(pointSpans.size(), 2u);
    EXPECT_EQ(pointSpans[1].duration, 0);
    EXPECT_EQ((*markers)[1].comment, "Date: 22.11.2018    Time: 15:26:39\n\nTest Comment"); // the <TX> of its XML
}

TEST(Mdf4Sources, ChannelGroupsAndChannelsNameTheirSource)
{
    const Opened o = open("ASAP2_Demo_V171.mf4");
    const ChannelGroup& g = o.structure.dataGroups[0].groups[0];
    EXPECT_TRUE(g.source.present);
    EXPECT_EQ(g.source.name, "");
    EXPECT_EQ(g.source.path, "ETK test device:1");
    EXPECT_EQ(g.source.type, 1);    // ECU
    EXPECT_EQ(g.source.busType, 1); // other
    EXPECT_EQ(g.source.label(), "ETK test device:1");
    EXPECT_TRUE(g.channels[1].source.present);
    const ChannelGroup& tool = o.structure.dataGroups.back().groups.back();
    EXPECT_EQ(tool.source.name, "INCA");
    EXPECT_EQ(tool.source.path, "OnChange");
    EXPECT_EQ(tool.source.label(), "INCA (OnChange)");
    EXPECT_TRUE(g.reductions.empty());
}

TEST(Mdf4Sources, SampleReductionsAreListed)
{
    const Opened o = open("dSPACE_CaptureBlocks.mf4");
    std::vector<Reduction> all;
    for (const DataGroup& dg : o.structure.dataGroups)
        for (const ChannelGroup& g : dg.groups) all.insert(all.end(), g.reductions.begin(), g.reductions.end());
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].cycleCount, 2u);
    EXPECT_EQ(all[0].interval, 3.3609469804373093);
    EXPECT_EQ(all[0].syncType, 1);
    EXPECT_NE(all[0].dataLink, 0u);
    EXPECT_EQ(all[1].cycleCount, 7u);
    EXPECT_EQ(all[1].interval, 1.381057318216741);
}
