// exportMdf4 on an in-memory recording with a gap, a NaN run, two rates and annotations, read back by our reader
// and by the independent mdf-check (../shared/tools): the same names, units, counts, values, invalid samples,
// times, events and blocks; EDF sources as int16; cancelled or refused conversions leave nothing.
#include "convert/Mdf4Export.h"

#include "formats/RecordingOpener.h"
#include "formats/mdf4/Mdf4Data.h"
#include "formats/mdf4/Mdf4Structure.h"
#include "io/ByteSource.h"
#include "support/MemoryRecording.h"
#include "support/TestSupport.h"

#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;
namespace mdf4 = formats::mdf4;

constexpr core::Uutc kStart = 1'600'000'000'000'000; // 2020-09-13T12:26:40Z

std::string mdfCheck() { return LONGVIEW_TESTDATA "/../tools/mdf-check"; }

// A and B at 256 Hz (both missing [1000, 1500): no records there; B also missing [200, 300): invalid bits), C at
// 100 Hz from 5 ms later with an offset; annotations: a point, a range, one on channel B.
std::unique_ptr<test::MemoryRecording> recording()
{
    auto r = std::make_unique<test::MemoryRecording>();
    r->description.format = "MEF 3.0";
    r->description.path = "/data/r.mefd";
    r->addChannel("A", 256, kStart, 4096, 3, 1000, 1500);
    r->addChannel("B", 256, kStart, 4096, -2, 1000, 1500);
    for (std::size_t i = 200; i < 300; ++i) r->grids[1][i] = core::kNoSample;
    r->addChannel("C", 100, kStart + 5000, 1600, 7);
    r->description.channels[2].unit = "mV";
    r->description.channels[2].offset = 0.25;
    r->description.channels[1].conversionFactor = 1.0; // identity: no CC
    r->description.annotations = {{kStart + 1'000'000, 0, "Note", "eyes closed", std::nullopt},
                                  {kStart + 2'000'000, 500'000, "Seiz", "onset & <spread>", std::nullopt},
                                  {kStart + 3'000'017, 0, "Spike", "", std::string("B")}};
    return r;
}

// What channel `c` of the recording should read back as: (time since the start in s, physical value) per record.
struct Series {
    std::vector<double> time, value;
};
Series expected(const test::MemoryRecording& r, std::size_t c, const std::vector<std::size_t>& group)
{
    const core::ChannelInfo& ch = r.description.channels[c];
    Series s;
    for (std::size_t i = 0; i < r.grids[c].size(); ++i) {
        bool any = false;
        for (const std::size_t m : group) any = any || r.grids[m][i] != core::kNoSample;
        if (!any) continue;
        s.time.push_back(static_cast<double>(ch.start - kStart) / 1e6 + static_cast<double>(i) / ch.fs);
        const std::int32_t v = r.grids[c][i];
        s.value.push_back(v == core::kNoSample ? NAN : v * ch.conversionFactor + ch.offset);
    }
    return s;
}

void expectSame(const std::vector<double>& got, const std::vector<double>& want, const std::string& what)
{
    ASSERT_EQ(got.size(), want.size()) << what;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i]))
            ASSERT_TRUE(std::isnan(got[i])) << what << " " << i << ": " << got[i];
        else
            ASSERT_EQ(got[i], want[i]) << what << " " << i;
    }
}

class Mdf4Export : public ::testing::Test {
protected:
    test::TempDir dir;
    std::unique_ptr<test::MemoryRecording> r = recording();
    std::string out = (dir.path() / "out.mf4").string();

    core::Result<ExportOutcome> write(const core::ReadControl& control = {})
    {
        const Selection all{{}, {r->description.start, r->description.end}};
        return exportMdf4(*r, all, TargetOptions{}, out, control);
    }
};

} // namespace

TEST_F(Mdf4Export, ReadsBackThroughOurReaderExactly)
{
    auto done = write();
    ASSERT_TRUE(done.ok()) << done.error().describe();
    EXPECT_EQ(done->files, std::vector<std::string>{out});
    auto file = io::openFile(out);
    ASSERT_TRUE(file.ok());
    auto s = mdf4::readStructure(**file);
    ASSERT_TRUE(s.ok()) << s.error().describe();
    EXPECT_EQ(s->startNs, static_cast<std::uint64_t>(kStart) * 1000);
    ASSERT_EQ(s->dataGroups.size(), 2u);
    const std::vector<std::vector<std::size_t>> groups = {{0, 1}, {2}};
    for (std::size_t g = 0; g < 2; ++g) {
        const mdf4::DataGroup& dg = s->dataGroups[g];
        const mdf4::ChannelGroup& cg = dg.groups.at(0);
        ASSERT_EQ(cg.channels.size(), groups[g].size() + 1);
        auto records = mdf4::readDataGroupBytes(**file, dg);
        ASSERT_TRUE(records.ok()) << records.error().describe();
        for (std::size_t k = 0; k < groups[g].size(); ++k) {
            const std::size_t c = groups[g][k];
            const mdf4::Channel& ch = cg.channels[k + 1];
            EXPECT_EQ(ch.name, r->description.channels[c].name);
            EXPECT_EQ(ch.unit, r->description.channels[c].unit);
            EXPECT_EQ(ch.dataType, mdf4::DataType::IntLe);
            EXPECT_EQ(ch.bitCount, 32u);
            const Series want = expected(*r, c, groups[g]);
            auto values = mdf4::channelValues(**file, dg, cg, ch, *records);
            ASSERT_TRUE(values.ok()) << values.error().describe();
            expectSame(*values, want.value, ch.name);
            auto times = mdf4::channelValues(**file, dg, cg, cg.channels[0], *records);
            ASSERT_TRUE(times.ok()) << times.error().describe();
            expectSame(*times, want.time, ch.name + " time");
        }
    }
}

TEST_F(Mdf4Export, MdfCheckReadsWhatWasWritten)
{
    if (!fs::exists(mdfCheck())) GTEST_SKIP() << "no " << mdfCheck();
    auto done = write();
    ASSERT_TRUE(done.ok()) << done.error().describe();
    std::string listing;
    ASSERT_EQ(test::run(mdfCheck() + " '" + out + "' --json", &listing), 0) << listing;
    const auto j = nlohmann::json::parse(listing);
    EXPECT_EQ(j["version"], "4.10");
    EXPECT_EQ(j["program"], "Longview");
    EXPECT_EQ(j["finalized"], true);
    EXPECT_EQ(j["start_time"], "2020-09-13T12:26:40.000000000Z");
    EXPECT_EQ(j["comment"], provenanceOr({}, r->description).text());
    EXPECT_TRUE(j["errors"].empty()) << j["errors"].dump();

    const auto& events = j["events"];
    ASSERT_EQ(events.size(), 4u);
    const std::vector<std::tuple<std::string, std::int64_t, double, double, std::string, std::string>> wantEvents = {
        {"point", 1, 1.0, 1.0, "Note", "eyes closed"},
        {"range_begin", 2, 1.0, 2.0, "Seiz", "onset & <spread>"},
        {"range_end", 2500, 1e-3, 2.5, "Seiz", "onset & <spread>"},
        {"point", 3'000'017, 1e-6, 3'000'017 * 1e-6, "Spike", ""}};
    for (std::size_t i = 0; i < 4; ++i) {
        const auto& [range, base, factor, seconds, name, comment] = wantEvents[i];
        EXPECT_EQ(events[i]["type"], "marker");
        EXPECT_EQ(events[i]["sync_type"], "time");
        EXPECT_EQ(events[i]["range_type"], range);
        EXPECT_EQ(events[i]["sync_base_value"], base);
        EXPECT_EQ(events[i]["sync_factor"], factor);
        EXPECT_EQ(events[i]["value"], seconds);
        EXPECT_EQ(events[i]["name"], name);
        EXPECT_EQ(events[i]["comment"], comment);
        EXPECT_EQ(events[i]["scope_count"], i == 3 ? 1 : 0);
        EXPECT_EQ(events[i]["has_range"], i == 2);
    }

    const auto& groups = j["groups"];
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0]["cycle_count"], 4096 - 500);
    EXPECT_EQ(groups[0]["acq_name"], "256 Hz");
    EXPECT_EQ(groups[1]["cycle_count"], 1600);
    EXPECT_EQ(groups[1]["acq_name"], "100 Hz");
    for (const auto& g : groups) {
        EXPECT_EQ(g["sorted"], true);
        EXPECT_EQ(g["rec_id_size"], 0);
        EXPECT_EQ(g["data_blocks"], nlohmann::json({{"DZ(DT,transposed-deflate)", 1}, {"DL", 1}, {"HL", 1}}));
        EXPECT_EQ(g["channels"][0]["name"], "time");
        EXPECT_EQ(g["channels"][0]["cn_type"], "master");
        EXPECT_EQ(g["channels"][0]["sync_type"], "time");
        EXPECT_EQ(g["channels"][0]["unit"], "s");
    }
    const auto& a = groups[0]["channels"][1];
    EXPECT_EQ(a["name"], "A");
    EXPECT_EQ(a["unit"], "uV");
    EXPECT_EQ(a["conversion"], "linear");
    EXPECT_EQ(a["data_type"], "int_le");
    EXPECT_EQ(a["invalidation"], "bit");
    EXPECT_EQ(a["invalid_samples"], 0);
    const auto& b = groups[0]["channels"][2];
    EXPECT_EQ(b["conversion"], "none");
    EXPECT_EQ(b["invalid_samples"], 100);
    EXPECT_EQ(groups[1]["channels"][1]["unit"], "mV");
    EXPECT_EQ(groups[1]["channels"][1]["first_time"], 0.005);

    // Every row of each channel's dump: the time and the value (INVALID where missing) exactly.
    const std::vector<std::vector<std::size_t>> members = {{0, 1}, {2}};
    for (const std::size_t c : {0, 1, 2}) {
        const std::string name = r->description.channels[c].name;
        std::string dump;
        ASSERT_EQ(test::run(mdfCheck() + " '" + out + "' --dump " + name, &dump), 0) << dump;
        const Series want = expected(*r, c, members[c == 2 ? 1 : 0]);
        std::istringstream lines(dump);
        std::string line;
        std::getline(lines, line);
        EXPECT_EQ(line, "time,value");
        std::vector<double> times, values;
        while (std::getline(lines, line)) {
            const auto comma = line.find(',');
            times.push_back(std::strtod(line.substr(0, comma).c_str(), nullptr));
            const std::string v = line.substr(comma + 1);
            values.push_back(v == "INVALID" ? NAN : std::strtod(v.c_str(), nullptr));
        }
        expectSame(times, want.time, name + " time");
        expectSame(values, want.value, name);
    }
}

// A channel whose source stores floats (ChannelInfo::floatBits) is written as floats of that width, the physical
// values themselves without a conversion: mdf-check reads float_le values equal to the source's (float32: rounded
// once to single precision), missing samples invalid; our reader sees floats of that width again.
TEST_F(Mdf4Export, FloatSourcesAreWrittenAsFloatsOfTheirWidth)
{
    if (!fs::exists(mdfCheck())) GTEST_SKIP() << "no " << mdfCheck();
    r->description.channels[1].floatBits = 32; // B, with its NaN run
    r->description.channels[1].conversionFactor = 0.1;
    r->description.channels[2].floatBits = 64; // C, with an offset
    auto done = write();
    ASSERT_TRUE(done.ok()) << done.error().describe();
    std::string listing;
    ASSERT_EQ(test::run(mdfCheck() + " '" + out + "' --json", &listing), 0) << listing;
    const auto j = nlohmann::json::parse(listing);
    const auto& groups = j["groups"];
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0]["channels"][1]["data_type"], "int_le"); // A: counts
    EXPECT_EQ(groups[0]["channels"][1]["conversion"], "linear");
    for (const auto& c : {groups[0]["channels"][2], groups[1]["channels"][1]}) {
        EXPECT_EQ(c["data_type"], "float_le");
        EXPECT_EQ(c["conversion"], "none");
    }
    EXPECT_EQ(groups[0]["channels"][2]["invalid_samples"], 100);
    const std::vector<std::vector<std::size_t>> members = {{0, 1}, {2}};
    for (const std::size_t c : {1, 2}) {
        const std::string name = r->description.channels[c].name;
        std::string dump;
        ASSERT_EQ(test::run(mdfCheck() + " '" + out + "' --dump " + name, &dump), 0) << dump;
        Series want = expected(*r, c, members[c == 2 ? 1 : 0]);
        if (c == 1)
            for (double& v : want.value) v = std::isnan(v) ? v : static_cast<double>(static_cast<float>(v));
        std::istringstream lines(dump);
        std::string line;
        std::getline(lines, line);
        std::vector<double> values;
        while (std::getline(lines, line)) {
            const std::string v = line.substr(line.find(',') + 1);
            values.push_back(v == "INVALID" ? NAN : std::strtod(v.c_str(), nullptr));
        }
        expectSame(values, want.value, name);
    }
    auto back = formats::openRecording({out, "", ""});
    ASSERT_TRUE(back.ok()) << back.error().describe();
    const auto& channels = (*back)->info().channels;
    ASSERT_EQ(channels.size(), 3u);
    EXPECT_EQ(channels[0].floatBits, 0);
    EXPECT_EQ(channels[1].floatBits, 32);
    EXPECT_EQ(channels[2].floatBits, 64);
}

TEST_F(Mdf4Export, EdfCountsAreWrittenAsInt16AndACountBeyondIsRefused)
{
    r->description.format = "EDF+C";
    {
        auto done = write();
        ASSERT_TRUE(done.ok()) << done.error().describe();
        auto file = io::openFile(out);
        ASSERT_TRUE(file.ok());
        auto s = mdf4::readStructure(**file);
        ASSERT_TRUE(s.ok());
        EXPECT_EQ(s->dataGroups[0].groups[0].channels[1].bitCount, 16u);
        EXPECT_EQ(s->dataGroups[0].groups[0].dataBytes, 8u + 2 + 2);
    }
    fs::remove(out);
    r->grids[2][1234] = 40000;
    auto refused = write();
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, core::ErrorCode::Unsupported);
    EXPECT_NE(refused.error().message.find("\"C\": count 40000"), std::string::npos) << refused.error().message;
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST_F(Mdf4Export, CancelledOrRefusedConversionsLeaveNothing)
{
    core::CancelToken cancel;
    cancel.cancel();
    core::ReadControl control;
    control.cancel = &cancel;
    std::uint64_t reported = 0;
    control.progress = [&](std::uint64_t done, std::uint64_t total) {
        reported = done;
        EXPECT_LE(done, total);
    };
    auto cancelled = write(control);
    ASSERT_FALSE(cancelled.ok());
    EXPECT_EQ(cancelled.error().code, core::ErrorCode::Cancelled);
    EXPECT_GT(reported, 0u);
    EXPECT_TRUE(fs::is_empty(dir.path()));

    test::writeBytes(out, {7});
    auto refused = write();
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_EQ(test::readBytes(out), std::vector<std::uint8_t>{7});
}

TEST_F(Mdf4Export, IsTheMf4Target)
{
    const TargetFormat* target = targetForOutput("x.mf4");
    ASSERT_NE(target, nullptr);
    EXPECT_EQ(target->extension, "mf4");
    EXPECT_GT(target->workingBytes, 0u);
    const Selection all{{}, {r->description.start, r->description.end}};
    auto done = exportTo(*r, all, TargetOptions{}, out, {});
    ASSERT_TRUE(done.ok()) << done.error().describe();
    EXPECT_TRUE(fs::exists(out));
}

} // namespace lv::convert
