// longview-cli convert to .mf4, end to end, checked by the independent mdf-check (../shared/tools): an EDF file
// (values against our EDF reader's, exactly; its annotation as an event) and MEF sessions (stored counts against
// their truth files, gaps and NaN runs absent); nothing but the output left in the folder.
#include "core/Recording.h"
#include "formats/RecordingOpener.h"
#include "support/TestSupport.h"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

std::string mdfCheck() { return LONGVIEW_TESTDATA "/../tools/mdf-check"; }

// (time, value) rows of `mdf-check FILE --dump CHANNEL [--raw]`; INVALID as NaN.
std::vector<std::pair<double, double>> dump(const std::string& file, const std::string& channel, bool raw)
{
    std::string out;
    EXPECT_EQ(test::run(mdfCheck() + " '" + file + "' --dump '" + channel + "'" + (raw ? " --raw" : ""), &out), 0)
        << out;
    std::istringstream lines(out);
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line, "time,value");
    std::vector<std::pair<double, double>> rows;
    while (std::getline(lines, line)) {
        const auto comma = line.find(',');
        const std::string v = line.substr(comma + 1);
        rows.emplace_back(std::strtod(line.substr(0, comma).c_str(), nullptr),
                          v == "INVALID" ? NAN : std::strtod(v.c_str(), nullptr));
    }
    return rows;
}

class CliMdf4 : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (!fs::exists(mdfCheck())) GTEST_SKIP() << "no " << mdfCheck();
    }
    test::TempDir dir;
    std::string out = (dir.path() / "x.mf4").string();

    nlohmann::json convertAndList(const fs::path& input, const std::string& options = "")
    {
        std::string said;
        EXPECT_EQ(test::run(std::string(LONGVIEW_CLI) + " convert '" + input.string() + "' '" + out + "' " + options +
                                " 2>&1",
                            &said),
                  0)
            << said;
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename().string());
        EXPECT_EQ(names, std::vector<std::string>{"x.mf4"}); // no temporary left
        std::string listing;
        EXPECT_EQ(test::run(mdfCheck() + " '" + out + "' --json", &listing), 0) << listing;
        return nlohmann::json::parse(listing);
    }
};

// --uncompressed: plain DT blocks in a DL (no DZ, no HL), which mdf-check and our reader read to the same counts.
TEST_F(CliMdf4, UncompressedOutputHoldsPlainDataBlocks)
{
    const fs::path input = test::testdata() / "mef3/legacy/multi_channel.mefd";
    const nlohmann::json j = convertAndList(input, "--uncompressed");
    ASSERT_EQ(j["groups"].size(), 1u);
    const nlohmann::json& blocks = j["groups"][0]["data_blocks"];
    EXPECT_EQ(blocks.count("DZ(DT,transposed-deflate)"), 0u) << blocks.dump();
    EXPECT_EQ(blocks.count("HL"), 0u) << blocks.dump();
    EXPECT_EQ(blocks.value("DT", 0), 1) << blocks.dump();
    EXPECT_EQ(blocks.value("DL", 0), 1) << blocks.dump();
    formats::OpenRequest source, copy;
    source.path = input.string();
    copy.path = out;
    auto a = formats::openRecording(source), b = formats::openRecording(copy);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_EQ((*b)->info().channels.size(), (*a)->info().channels.size());
    for (std::size_t c = 0; c < (*a)->info().channels.size(); ++c) {
        const core::TimeRange all{(*a)->info().start, (*a)->info().end};
        const std::vector<std::size_t> one = {c};
        auto x = core::readRange(**a, one, all, {}), y = core::readRange(**b, one, all, {});
        ASSERT_TRUE(x.ok() && y.ok());
        EXPECT_EQ((*y)[0].raw, (*x)[0].raw);
    }
}

} // namespace

TEST_F(CliMdf4, AnEdfFileReadsBackWithItsValuesTimesAndAnnotation)
{
    const fs::path input = test::testdata() / "edf/test_generator.edf";
    const nlohmann::json j = convertAndList(input);
    EXPECT_TRUE(j["errors"].empty()) << j["errors"].dump();
    EXPECT_EQ(j["program"], "Longview");
    EXPECT_NE(j["comment"].get<std::string>().find("from EDF+C " + input.lexically_normal().string()),
              std::string::npos)
        << j["comment"];
    ASSERT_EQ(j["events"].size(), 1u);
    EXPECT_EQ(j["events"][0]["name"], "EDFA");
    EXPECT_EQ(j["events"][0]["comment"], "Recording starts");

    formats::OpenRequest request;
    request.path = input.string();
    auto opened = formats::openRecording(request);
    ASSERT_TRUE(opened.ok()) << opened.error().describe();
    const core::RecordingInfo& info = (*opened)->info();
    std::size_t channels = 0;
    for (const auto& g : j["groups"]) {
        channels += g["channels"].size() - 1;
        EXPECT_EQ(g["data_blocks"].count("HL"), 1u);
        EXPECT_EQ(g["channels"][1]["data_type"], "int_le");
        EXPECT_EQ(g["channels"][1]["bit_count"], 16);
    }
    EXPECT_EQ(channels, info.channels.size());
    EXPECT_EQ(j["start_time_ns"], static_cast<std::uint64_t>(info.start) * 1000);
    for (const std::string name : {"sine 8.5 Hz", "pulse"}) {
        const int c = info.channelIndex(name);
        ASSERT_GE(c, 0);
        const std::size_t channel = static_cast<std::size_t>(c);
        auto samples = core::readRange(**opened, std::span(&channel, 1), {info.start, info.end}, {});
        ASSERT_TRUE(samples.ok()) << samples.error().describe();
        const core::ChannelInfo& ch = info.channels[channel];
        const std::vector<double> want = core::toPhysical((*samples)[0], ch.conversionFactor, ch.offset);
        const auto rows = dump(out, name, false);
        ASSERT_EQ(rows.size(), want.size()) << name;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            ASSERT_EQ(rows[i].first, static_cast<double>(ch.start - info.start) / 1e6 + static_cast<double>(i) / ch.fs)
                << name << " " << i;
            ASSERT_EQ(rows[i].second, want[i]) << name << " " << i;
        }
    }
}

// Stored counts (--raw) against the truth files, row by row: a grid point without a sample has no record (one
// channel) or an INVALID value (another channel of the group has one).
TEST_F(CliMdf4, MefSessionsKeepTheirCountsAndLeaveGapsOut)
{
    for (const std::string name : {"multi_channel", "nan_gap_long"}) {
        SCOPED_TRACE(name);
        fs::remove(out);
        const fs::path session = test::testdata() / "mef3/legacy" / (name + ".mefd");
        const nlohmann::json j = convertAndList(session);
        EXPECT_TRUE(j["errors"].empty()) << j["errors"].dump();
        const auto truth = test::readTruth(test::testdata() / "mef3/legacy" / (name + ".truth.csv"));
        ASSERT_EQ(j["groups"].size(), 1u);
        const auto& g = j["groups"][0];
        EXPECT_EQ(g["acq_name"], "256 Hz");
        for (const auto& [channel, t] : truth) {
            const auto rows = dump(out, channel, true);
            std::size_t stored = 0;
            for (const auto& v : t.raw) stored += v.has_value();
            EXPECT_EQ(rows.size(), stored); // one channel: every record holds a sample
            for (const auto& [time, raw] : rows) {
                const auto index = static_cast<std::size_t>(std::llround(time * 256.0));
                ASSERT_EQ(time, static_cast<double>(index) / 256.0);
                ASSERT_LT(index, t.raw.size());
                ASSERT_TRUE(t.raw[index].has_value()) << index;
                ASSERT_EQ(raw, static_cast<double>(*t.raw[index])) << channel << " " << index;
            }
        }
    }
}

} // namespace lv::cli
