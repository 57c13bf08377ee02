// CSV export of irregular channels: a table per time base with a row per sample time at ns, exact rows in every
// time form, beside the grid table of a mixed recording; names, JSON "tables", progress, refusal and cancellation.
#include "convert/CsvExport.h"
#include "convert/CsvTables.h"
#include "convert/StackedRecording.h"

#include "support/IrregularRecording.h"
#include "support/MemoryRecording.h"
#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kT0 = 1577836800'000000'000; // 2020-01-01T00:00:00Z in ns

std::vector<std::string> lines(const fs::path& file)
{
    std::ifstream in(file);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

std::vector<std::string> namesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Channels a and b share one time base (4 samples, one of them with no valid value at all), c has its own.
std::unique_ptr<test::IrregularRecording> twoGroups()
{
    auto r = std::make_unique<test::IrregularRecording>();
    const std::vector<std::int64_t> times = {kT0, kT0 + 1500, kT0 + 2'000'000'123, kT0 + 5'000'000'000};
    r->addChannel("a", times, {1, 2, core::kNoSample, 4});
    r->addChannel("b", times, {10, core::kNoSample, core::kNoSample, -3});
    r->addChannel("c", {kT0 + 1'000'000'000, kT0 + 3'000'000'000}, {7, 8}, 64, 1.0);
    r->description.channels[1].timeBase = r->description.channels[0].timeBase;
    r->description.channels[0].group = r->description.channels[1].group = "channel group 2 (Engine_1)";
    return r;
}

CsvOptions wholeOf(const core::Recording& r)
{
    CsvOptions o;
    o.range = {r.info().start, r.info().end};
    return o;
}

TEST(CsvIrregular, EachTimeBaseIsATableWithARowPerSampleTime)
{
    auto r = twoGroups();
    test::TempDir dir;
    ASSERT_TRUE(exportCsv(*r, wholeOf(*r), (dir.path() / "o.csv").string(), {}).ok());
    // Irregular channels alone: the first group is o.csv (no empty grid table), the next o.1.csv.
    EXPECT_EQ(namesIn(dir.path()), (std::vector<std::string>{"o.1.csv", "o.annotations.csv", "o.csv", "o.json"}));
    EXPECT_EQ(lines(dir.path() / "o.csv"), (std::vector<std::string>{"# units: a=V b=V", "time,a,b", "0,0.5,5",
                                                                     "0.0000015,1,", "2.000000123,,", "5,2,-1.5"}));
    EXPECT_EQ(lines(dir.path() / "o.1.csv"), (std::vector<std::string>{"# units: c=V", "time,c", "1,7", "3,8"}));
    EXPECT_EQ(csvOutputs(r->info(), wholeOf(*r), (dir.path() / "o.csv").string()),
              (std::vector<std::string>{(dir.path() / "o.csv").string(), (dir.path() / "o.1.csv").string()}));
}

TEST(CsvIrregular, TimesKeepTheirNanosecondsInEveryFormAndTheRangeIsHalfOpen)
{
    auto r = twoGroups();
    test::TempDir dir;
    CsvOptions o;
    o.channels = {0, 1};
    o.range = {kT0 / 1000 + 1, kT0 / 1000 + 5'000'000}; // from 1 us: 1.5 us and 2.000000123 s; 5 s is the end
    o.time = TimeColumn::Iso;
    o.raw = true;
    ASSERT_TRUE(exportCsv(*r, o, (dir.path() / "iso.csv").string(), {}).ok());
    EXPECT_EQ(lines(dir.path() / "iso.csv"), (std::vector<std::string>{"# units: a=counts b=counts", "time,a,b",
                                                                       "2020-01-01T00:00:00.000001500+00:00,2,",
                                                                       "2020-01-01T00:00:02.000000123+00:00,,"}));
    o.time = TimeColumn::Uutc;
    o.raw = false;
    o.delimiter = ';';
    o.decimalComma = true;
    ASSERT_TRUE(exportCsv(*r, o, (dir.path() / "us.csv").string(), {}).ok());
    EXPECT_EQ(
        lines(dir.path() / "us.csv"),
        (std::vector<std::string>{"# units: a=V b=V", "time;a;b", "1577836800000001,5;1;", "1577836802000000,123;;"}));
}

TEST(CsvIrregular, TimeCellsAtNanoseconds)
{
    EXPECT_EQ(csvTimeNs(-1, TimeColumn::Seconds, 0, false), "-0.000000001");
    EXPECT_EQ(csvTimeNs(-1, TimeColumn::Uutc, 0, false), "-0.001");
    EXPECT_EQ(csvTimeNs(-1, TimeColumn::Iso, 0, false), "1969-12-31T23:59:59.999999999+00:00");
    EXPECT_EQ(csvTimeNs(1542896795439737199, TimeColumn::Iso, 0, false), "2018-11-22T14:26:35.439737199+00:00");
    EXPECT_EQ(csvTimeNs(1542896795439737199, TimeColumn::Uutc, 0, true), "1542896795439737,199");
    EXPECT_EQ(csvTimeNs(1542896795439737000, TimeColumn::Uutc, 0, false), "1542896795439737");
    EXPECT_EQ(csvTimeNs(kT0 + 2'500'000'000, TimeColumn::Seconds, kT0 / 1000, true), "2,5");
    EXPECT_EQ(csvTablePath("/x/out.csv", 0), "/x/out.csv");
    EXPECT_EQ(csvTablePath("/x/out.csv", 12), "/x/out.12.csv");
    EXPECT_EQ(csvTablePath("/x/out", 1), "/x/out.1.csv");
}

// A grid recording (g at 1 Hz from kT0) and the two irregular groups side by side.
std::unique_ptr<core::Recording> mixed()
{
    auto grid = std::make_unique<test::MemoryRecording>();
    grid->addChannel("g", 1.0, kT0 / 1000, 3);
    std::vector<std::unique_ptr<core::Recording>> parts;
    parts.push_back(std::move(grid));
    parts.push_back(twoGroups());
    auto stacked = StackedRecording::create(std::move(parts));
    EXPECT_TRUE(stacked.ok());
    return stacked.ok() ? std::unique_ptr<core::Recording>(std::move(*stacked)) : nullptr;
}

TEST(CsvIrregular, AMixedRecordingKeepsItsGridTableAndListsEveryTableInItsJson)
{
    auto r = mixed();
    ASSERT_TRUE(r);
    test::TempDir dir;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> progress;
    core::ReadControl control;
    control.progress = [&](std::uint64_t done, std::uint64_t total) { progress.emplace_back(done, total); };
    ASSERT_TRUE(exportCsv(*r, wholeOf(*r), (dir.path() / "m.csv").string(), control).ok());
    EXPECT_EQ(namesIn(dir.path()),
              (std::vector<std::string>{"m.1.csv", "m.2.csv", "m.annotations.csv", "m.csv", "m.json"}));
    EXPECT_EQ(lines(dir.path() / "m.csv"),
              (std::vector<std::string>{"# units: g=uV", "time,g", "0,0", "1,0.5", "2,1"}));
    EXPECT_EQ(lines(dir.path() / "m.1.csv").back(), "5,2,-1.5");
    EXPECT_EQ(lines(dir.path() / "m.2.csv").back(), "3,8");
    // Samples over all tables: 3 x 1 + 4 x 2 + 2 x 1, ending at the total.
    ASSERT_FALSE(progress.empty());
    EXPECT_EQ(progress.back(), (std::pair<std::uint64_t, std::uint64_t>{13, 13}));

    std::ifstream in(dir.path() / "m.json");
    const auto j = nlohmann::json::parse(in);
    ASSERT_EQ(j["tables"].size(), 3u);
    EXPECT_EQ(j["tables"][0], nlohmann::json::parse(R"({"file": "m.csv", "times": "grid", "channels": ["g"]})"));
    const std::string second =
        R"j({"file": "m.1.csv", "times": "irregular", "group": "channel group 2 (Engine_1)", "channels": ["a", "b"]})j";
    EXPECT_EQ(j["tables"][1], nlohmann::json::parse(second));
    EXPECT_EQ(j["tables"][2]["file"], "m.2.csv");
    EXPECT_EQ(j["channels"][1]["irregular"], true);
    EXPECT_EQ(j["channels"][1]["table"], "m.1.csv");
    EXPECT_FALSE(j["channels"][0].contains("irregular"));
    EXPECT_EQ(j["channels"][0]["table"], "m.csv");
}

TEST(CsvIrregular, AnExistingTableNameIsRefusedBeforeAnythingIsWritten)
{
    auto r = twoGroups();
    test::TempDir dir;
    test::writeBytes(dir.path() / "o.1.csv", {'x'});
    const core::Status s = exportCsv(*r, wholeOf(*r), (dir.path() / "o.csv").string(), {});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_EQ(s.error().path, (dir.path() / "o.1.csv").string());
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"o.1.csv"});
}

TEST(CsvIrregular, CancellingInAnyTableLeavesNoFile)
{
    for (int atCall = 1; atCall <= 2; ++atCall) { // in the grid table, in the first irregular one
        SCOPED_TRACE(atCall);
        auto r = mixed();
        ASSERT_TRUE(r);
        test::TempDir dir;
        core::CancelToken cancel;
        core::ReadControl control;
        control.cancel = &cancel;
        int calls = 0;
        control.progress = [&](std::uint64_t, std::uint64_t) {
            if (++calls == atCall) cancel.cancel();
        };
        const core::Status s = exportCsv(*r, wholeOf(*r), (dir.path() / "m.csv").string(), control);
        ASSERT_FALSE(s.ok());
        EXPECT_EQ(s.error().code, core::ErrorCode::Cancelled);
        EXPECT_EQ(calls, atCall);
        EXPECT_TRUE(fs::is_empty(dir.path())) << namesIn(dir.path()).front();
    }
}

} // namespace
} // namespace lv::convert
