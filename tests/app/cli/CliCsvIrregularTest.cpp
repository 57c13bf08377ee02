// longview-cli convert to CSV of an MDF 4 file with irregular channel groups, end to end: the grid table in OUT.csv,
// one table per group in OUT.<k>.csv (named on stdout and in OUT.json), rows at mdf-check's times.
#include "core/Recording.h"
#include "formats/RecordingOpener.h"
#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

std::string mdfCheck() { return LONGVIEW_TESTDATA "/../tools/mdf-check"; }

std::vector<std::string> lines(const fs::path& file)
{
    std::ifstream in(file);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

TEST(CliCsvIrregular, ConvertWritesTheGridTableAndATablePerIrregularGroup)
{
    if (!fs::exists(mdfCheck())) GTEST_SKIP() << "no " << mdfCheck();
    const std::string input = LONGVIEW_TESTDATA "/mdf4/ASAP2_Demo_V171.mf4";
    formats::OpenRequest request;
    request.path = input;
    auto opened = formats::openRecording(request);
    ASSERT_TRUE(opened.ok()) << opened.error().describe();
    const core::RecordingInfo& info = (*opened)->info();
    // The 10 ms group (grid, one rate) and every irregular channel (channel groups 2-5).
    std::string channels;
    for (const core::ChannelInfo& ch : info.channels)
        if (ch.irregular || ch.group.starts_with("channel group 1 "))
            channels += (channels.empty() ? "" : ",") + ch.name;
    test::TempDir dir;
    const std::string out = (dir.path() / "out.csv").string();
    std::string said;
    ASSERT_EQ(test::run(std::string(LONGVIEW_CLI) + " convert '" + input + "' '" + out + "' --channels '" + channels +
                            "' 2>/dev/null",
                        &said),
              0)
        << said;
    std::string listed;
    for (int k = 1; k <= 4; ++k) listed += (dir.path() / ("out." + std::to_string(k) + ".csv")).string() + "\n";
    EXPECT_EQ(said, out + "\n" + listed);
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir.path())) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"out.1.csv", "out.2.csv", "out.3.csv", "out.4.csv",
                                               "out.annotations.csv", "out.csv", "out.json"}));

    std::ifstream json(dir.path() / "out.json");
    const auto j = nlohmann::json::parse(json);
    ASSERT_EQ(j["tables"].size(), 5u);
    EXPECT_EQ(j["tables"][0]["times"], "grid");
    EXPECT_EQ(j["tables"][1]["file"], "out.1.csv");
    EXPECT_TRUE(j["tables"][1]["group"].get<std::string>().starts_with("channel group 2 (Engine_1)"));
    EXPECT_EQ(j["tables"][1]["channels"].size(), 23u);

    EXPECT_EQ(lines(dir.path() / "out.csv").size(), 2u + 1240u);
    // Engine_1: a row per record, its times those of mdf-check (s from the file's start 14:26:35.439737199) counted
    // from the recording's start (14:26:35.439737): 199 ns more.
    const auto engine = lines(dir.path() / "out.1.csv");
    ASSERT_EQ(engine.size(), 2u + 12402u);
    EXPECT_TRUE(engine[1].starts_with("time,ASAM.M.SCALAR.UBYTE.VTAB_RANGE_NO_DEFAULT_VALUE,")) << engine[1];
    std::string dump;
    ASSERT_EQ(test::run(mdfCheck() + " '" + input + "' --dump ASAM.M.SCALAR.SLONG.IDENTICAL --group 2", &dump), 0);
    std::istringstream rows(dump);
    std::string header, first;
    std::getline(rows, header);
    std::getline(rows, first);
    EXPECT_EQ(first.substr(0, first.find(',')), "0.013269299999965567");
    EXPECT_TRUE(engine[2].starts_with("0.013269499,")) << engine[2];
    EXPECT_TRUE(engine.back().starts_with("12.414284863,")) << engine.back();
}

} // namespace
} // namespace lv::cli
