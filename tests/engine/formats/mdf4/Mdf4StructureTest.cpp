// The block tree of every MDF 4 reference file against the manifest mdf-check made (and asammdf agreed with):
// version, start, groups, record layout, channel names, units, kinds, data types, bit layout, conversions.
#include "formats/mdf4/Mdf4Structure.h"

#include "io/ByteSource.h"
#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace lv::formats::mdf4;
using nlohmann::json;

namespace {

std::string mdf4Dir() { return std::string(LONGVIEW_TESTDATA) + "/mdf4"; }

const json& manifest()
{
    static const json m = json::parse(std::ifstream(mdf4Dir() + "/manifest.json"));
    return m;
}

std::vector<std::string> fileNames()
{
    std::vector<std::string> names;
    for (const auto& [name, _] : manifest()["files"].items()) names.push_back(name);
    return names;
}

const char* invalidationName(const Channel& c) { return c.allInvalid() ? "all" : c.flags & 2u ? "bit" : "none"; }

const char* syncName(SyncKind s)
{
    static constexpr const char* kNames[] = {"none", "time", "angle", "distance", "index"};
    return kNames[static_cast<std::size_t>(s)];
}

class Mdf4Reference : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(Mdf4Reference, TheBlockTreeIsWhatMdfCheckListed)
{
    const json& want = manifest()["files"][GetParam()];
    auto source = lv::io::openFile(mdf4Dir() + "/" + GetParam());
    ASSERT_TRUE(source.ok()) << source.error().describe();
    auto s = readStructure(**source);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    EXPECT_EQ(s->version, want["version"].get<std::string>());
    EXPECT_EQ(s->program, want["program"].get<std::string>());
    EXPECT_EQ(s->startNs, want["start_time_ns"].get<std::uint64_t>());
    EXPECT_EQ(s->tzOffsetMin, want["tz_offset_min"].get<int>());
    EXPECT_EQ(s->dstOffsetMin, want["dst_offset_min"].get<int>());
    EXPECT_EQ(s->channelCount(), want["channel_count"].get<std::size_t>());

    std::vector<std::pair<const DataGroup*, const ChannelGroup*>> groups;
    for (const DataGroup& dg : s->dataGroups)
        for (const ChannelGroup& g : dg.groups) groups.emplace_back(&dg, &g);
    ASSERT_EQ(groups.size(), want["groups"].size());
    for (std::size_t i = 0; i < groups.size(); ++i) {
        const json& wg = want["groups"][i];
        const auto& [dg, g] = groups[i];
        SCOPED_TRACE("group " + std::to_string(i));
        EXPECT_EQ(dg->recordIdBytes, wg["rec_id_size"].get<int>());
        EXPECT_EQ(g->recordId, wg["record_id"].get<std::uint64_t>());
        EXPECT_EQ(g->cycleCount, wg["cycle_count"].get<std::uint64_t>());
        EXPECT_EQ(g->isVlsd(), wg["vlsd_cg"].get<bool>());
        EXPECT_EQ(g->dataBytes, wg["data_bytes"].get<std::uint32_t>());
        EXPECT_EQ(g->invalidBytes, wg["inval_bytes"].get<std::uint32_t>());
        EXPECT_EQ(g->acquisitionName, wg["acq_name"].get<std::string>());
        ASSERT_EQ(g->channels.size(), wg["channels"].size());
        for (std::size_t k = 0; k < g->channels.size(); ++k) {
            const Channel& c = g->channels[k];
            const json& wc = wg["channels"][k];
            SCOPED_TRACE("channel " + c.name);
            EXPECT_EQ(c.name, wc["name"].get<std::string>());
            EXPECT_EQ(c.unit, wc["unit"].get<std::string>());
            EXPECT_EQ(channelKindName(c.kind), wc["cn_type"].get<std::string>());
            EXPECT_EQ(syncName(c.sync), wc["sync_type"].get<std::string>());
            EXPECT_EQ(c.isMaster(), wc["master"].get<bool>());
            EXPECT_EQ(dataTypeName(c.dataType), wc["data_type"].get<std::string>());
            EXPECT_EQ(c.byteOffset, wc["byte_offset"].get<std::uint32_t>());
            EXPECT_EQ(c.bitOffset, wc["bit_offset"].get<int>());
            EXPECT_EQ(c.bitCount, wc["bit_count"].get<std::uint32_t>());
            EXPECT_EQ(c.hasConversion ? conversionName(c.conversion->kind) : "none",
                      wc["conversion"].get<std::string>());
            EXPECT_EQ(invalidationName(c), wc["invalidation"].get<std::string>());
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Files, Mdf4Reference, ::testing::ValuesIn(fileNames()), [](const auto& info) {
    std::string name = info.param;
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
});
