// Samples of MDF 4 reference files against the value dumps asammdf made (expected/*.csv, reproduced byte for byte
// by mdf-check): times from the group's master, physical values, invalid samples; and what is not read yet.
#include "Mdf4Oracle.h"

#include "formats/mdf4/Mdf4Data.h"

#include "io/ByteSource.h"

#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>

using namespace lv::formats::mdf4;

namespace {

std::string mdf4Dir() { return std::string(LONGVIEW_TESTDATA) + "/mdf4"; }

struct Expected {
    std::string file, channel; // expected/<stem>__<channel>.csv
};

void PrintTo(const Expected& e, std::ostream* os) { *os << e.file << " " << e.channel; }

struct Found {
    const DataGroup* dg = nullptr;
    const ChannelGroup* group = nullptr;
    const Channel* channel = nullptr;
    const Channel* master = nullptr;
};

Found find(const Structure& s, const std::string& name)
{
    for (const DataGroup& dg : s.dataGroups)
        for (const ChannelGroup& g : dg.groups)
            for (const Channel& c : g.channels)
                if (c.name == name) {
                    Found f{&dg, &g, &c, nullptr};
                    for (const Channel& m : g.channels)
                        if (m.isMaster()) f.master = &m;
                    return f;
                }
    return {};
}

class Mdf4Samples : public ::testing::TestWithParam<Expected> {};

} // namespace

TEST_P(Mdf4Samples, EqualAsammdfsDump)
{
    const Expected& e = GetParam();
    auto file = lv::io::openFile(mdf4Dir() + "/" + e.file);
    ASSERT_TRUE(file.ok()) << file.error().describe();
    auto s = readStructure(**file);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    const Found f = find(*s, e.channel);
    ASSERT_NE(f.channel, nullptr);
    ASSERT_NE(f.master, nullptr);
    auto records = readDataGroupBytes(**file, *f.dg);
    ASSERT_TRUE(records.ok()) << records.error().describe();
    auto values = channelValues(**file, *f.dg, *f.group, *f.channel, *records);
    ASSERT_TRUE(values.ok()) << values.error().describe();
    auto times = channelValues(**file, *f.dg, *f.group, *f.master, *records);
    ASSERT_TRUE(times.ok()) << times.error().describe();
    const std::string stem = e.file.substr(0, e.file.rfind('.'));
    const auto rows = lv::test::mdf4::numericDump(mdf4Dir() + "/expected/" + stem + "__" + e.channel + ".csv");
    ASSERT_EQ(values->size(), rows.size());
    std::size_t invalid = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ASSERT_EQ((*times)[i], rows[i].first) << "row " << i;
        if (std::isnan(rows[i].second)) {
            ++invalid;
            ASSERT_TRUE(std::isnan((*values)[i])) << "row " << i << " should be invalid";
        } else {
            ASSERT_EQ((*values)[i], rows[i].second) << "row " << i;
        }
    }
    if (e.channel == "temp_gap") { // the dump's gap is there, as NaN
        EXPECT_GT(invalid, 0u);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Dumps, Mdf4Samples,
    ::testing::Values(Expected{"asammdf_two_rates_dz.mf4", "ecg"}, Expected{"asammdf_two_rates_dz.mf4", "counter"},
                      Expected{"asammdf_two_rates_dz.mf4", "pressure"},
                      Expected{"asammdf_two_rates_dz.mf4", "temp_gap"}, Expected{"asammdf_transposed_dl.mf4", "ch1"},
                      Expected{"Vector_IntegerTypes.MF4", "Bit_Signal"},
                      Expected{"Vector_IntegerTypes.MF4", "Counter_INT16_BE"},
                      Expected{"asammdf_vlsd_virtual.mf4", "value3"}, Expected{"asammdf_vlsd_virtual.mf4", "vm_data"},
                      Expected{"Vector_SingleDZ_Unsorted.MF4", "channel1"}),
    [](const auto& info) {
        std::string name = info.param.file.substr(0, info.param.file.find('.')) + "_" + info.param.channel;
        for (char& ch : name)
            if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
        return name;
    });

TEST(Mdf4Samples, ATextConversionIsSaidToBeNotReadYet)
{
    auto file = lv::io::openFile(mdf4Dir() + "/asammdf_two_rates_dz.mf4");
    ASSERT_TRUE(file.ok());
    auto s = readStructure(**file);
    ASSERT_TRUE(s.ok());
    const Found f = find(*s, "state");
    ASSERT_NE(f.channel, nullptr);
    auto records = readDataGroupBytes(**file, *f.dg);
    ASSERT_TRUE(records.ok());
    auto values = channelValues(**file, *f.dg, *f.group, *f.channel, *records);
    ASSERT_FALSE(values.ok());
    EXPECT_EQ(values.error().describe(),
              mdf4Dir() + "/asammdf_two_rates_dz.mf4: MDF4: the conversion of channel state is not read yet (at byte " +
                  std::to_string(f.channel->offset) + ")");
}
