// CSV side files: the annotations table and the JSON description of a small known recording, exactly; an existing
// side file refused before anything is written; a cancelled or half-committed export leaves none of the three.
#include "convert/CsvSideFiles.h"
#include "convert/CsvExport.h"
#include "core/Version.h"
#include "support/MemoryRecording.h"
#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

constexpr core::Uutc kStart = 1'704'067'200'000'000; // 2024-01-01T00:00:00Z

std::string text(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> namesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// Channels a, b (samples 4 and 5 missing) and c at 2 Hz for 5 s; annotations on the whole recording, on b, on c
// (not exported) and after the range; a damaged block of a (samples 6 and 7).
test::MemoryRecording smallRecording()
{
    test::MemoryRecording r;
    r.addChannel("a", 2.0, kStart, 10);
    r.addChannel("b", 2.0, kStart, 10, 3, 4, 6);
    r.addChannel("c", 2.0, kStart, 10);
    r.description.format = "EDF+C";
    r.description.path = "/data/small.edf";
    r.description.annotations = {
        {kStart + 1'000'000, 0, "Note", "=SUM(A1)", std::nullopt},
        {kStart + 2'500'000, 250'000, "Seiz", "spike, \"sharp\"", std::string("b")},
        {kStart + 3'000'000, 0, "EDFA", "on c", std::string("c")},
        {kStart + 4'500'000, 0, "EDFA", "after the range", std::nullopt},
    };
    r.damage = {{0, 6, 2, "/data/small.edf", 777}};
    return r;
}

CsvOptions exportOptions()
{
    CsvOptions o;
    o.channels = {0, 1};
    o.range = {kStart, kStart + 4'000'000};
    return o;
}

TEST(CsvSideFiles, NamesAreTheCsvsWithoutItsExtension)
{
    EXPECT_EQ(csvSideFiles("/x/out.csv").annotations, "/x/out.annotations.csv");
    EXPECT_EQ(csvSideFiles("/x/out.csv").json, "/x/out.json");
    EXPECT_EQ(csvSideFiles("/x/out.data").json, "/x/out.data.json");
}

TEST(CsvSideFiles, AnnotationsAndDescriptionOfASmallRecordingExactly)
{
    test::MemoryRecording r = smallRecording();
    test::TempDir dir;
    const fs::path out = dir.path() / "out.csv";
    core::ReadControl control;
    control.skipDamagedBlocks = true;
    ASSERT_TRUE(exportCsv(r, exportOptions(), out.string(), control).ok());
    EXPECT_EQ(namesIn(dir.path()), (std::vector<std::string>{"out.annotations.csv", "out.csv", "out.json"}));
    EXPECT_EQ(text(out), "# units: a=uV b=uV\n"
                         "time,a,b\n"
                         "# Damaged a at 3: damaged block in /data/small.edf at byte 777, samples missing\n"
                         "0,0,0\n"
                         "0.5,0.5,1.5\n"
                         "1,1,3\n"
                         "1.5,1.5,4.5\n"
                         "2,2,\n"
                         "2.5,2.5,\n"
                         "3,,9\n"
                         "3.5,,10.5\n");
    EXPECT_EQ(text(dir.path() / "out.annotations.csv"),
              "onset_iso,onset_seconds,duration_seconds,type,text,channel\n"
              "2024-01-01T00:00:01.000000+00:00,1,0,Note,'=SUM(A1),\n"
              "2024-01-01T00:00:02.500000+00:00,2.5,0.25,Seiz,\"spike, \"\"sharp\"\"\",b\n"
              "2024-01-01T00:00:03.000000+00:00,3,1,Damaged,"
              "\"damaged block in /data/small.edf at byte 777, samples missing\",a\n");
    const std::string version = core::kVersion;
    EXPECT_EQ(text(dir.path() / "out.json"), R"({
  "source": {
    "text": "converted by Longview )" + version + R"( from EDF+C /data/small.edf",
    "paths": [
      "/data/small.edf"
    ],
    "format": "EDF+C",
    "tool": "Longview",
    "version": ")" + version + R"(",
    "deidentified": false,
    "dates_shifted": false,
    "processing": ""
  },
  "start_uutc": 1704067200000000,
  "start_iso": "2024-01-01T00:00:00.000000+00:00",
  "times_known": true,
  "values": "physical",
  "time_column": "seconds",
  "annotations": "out.annotations.csv",
  "channels": [
    {
      "name": "a",
      "fs": 2.0,
      "unit": "uV",
      "conversion_factor": 0.5,
      "offset": 0.0,
      "start_uutc": 1704067200000000,
      "end_uutc": 1704067204000000,
      "gaps": [],
      "prefilter": ""
    },
    {
      "name": "b",
      "fs": 2.0,
      "unit": "uV",
      "conversion_factor": 0.5,
      "offset": 0.0,
      "start_uutc": 1704067200000000,
      "end_uutc": 1704067204000000,
      "gaps": [
        [
          1704067202000000,
          1704067203000000
        ]
      ],
      "prefilter": ""
    }
  ]
}
)");
}

TEST(CsvSideFiles, RawCountsAndRelativeTimesAreSaid)
{
    test::MemoryRecording r = smallRecording();
    r.description.timesKnown = false;
    test::TempDir dir;
    CsvOptions o = exportOptions();
    o.raw = true;
    o.time = TimeColumn::Uutc;
    ASSERT_TRUE(exportCsv(r, o, (dir.path() / "r.csv").string(), {}).ok());
    const std::string json = text(dir.path() / "r.json");
    EXPECT_NE(json.find("\"start_iso\": null,\n  \"times_known\": false,\n  \"values\": \"counts\",\n"
                        "  \"time_column\": \"uutc\""),
              std::string::npos)
        << json;
    const std::string notes = text(dir.path() / "r.annotations.csv");
    EXPECT_NE(notes.find("\n,1,0,Note,'=SUM(A1),\n"), std::string::npos) << notes; // no ISO onset for relative times
}

TEST(CsvSideFiles, AnExistingSideFileIsRefusedAndNothingIsWritten)
{
    for (const char* existing : {"out.annotations.csv", "out.json"}) {
        test::MemoryRecording r = smallRecording();
        test::TempDir dir;
        test::writeBytes(dir.path() / existing, {'x'});
        const core::Status s = exportCsv(r, exportOptions(), (dir.path() / "out.csv").string(), {});
        ASSERT_FALSE(s.ok()) << existing;
        EXPECT_EQ(s.error().code, core::ErrorCode::InvalidArgument);
        EXPECT_EQ(s.error().message, "the output already exists; choose a new name");
        EXPECT_EQ(s.error().path, (dir.path() / existing).string());
        EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{existing});
        EXPECT_EQ(test::readBytes(dir.path() / existing), std::vector<std::uint8_t>{'x'});
    }
}

TEST(CsvSideFiles, ACancelledExportLeavesNoneOfTheThree)
{
    test::MemoryRecording r = smallRecording();
    test::TempDir dir;
    core::CancelToken cancel;
    cancel.cancel();
    core::ReadControl control;
    control.cancel = &cancel;
    const core::Status s = exportCsv(r, exportOptions(), (dir.path() / "out.csv").string(), control);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, core::ErrorCode::Cancelled);
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(CsvSideFiles, ASideFileThatAppearsMeanwhileTakesTheOthersBackOut)
{
    test::MemoryRecording r = smallRecording();
    test::TempDir dir;
    core::ReadControl control;
    control.progress = [&](std::uint64_t, std::uint64_t) { test::writeBytes(dir.path() / "out.json", {'y'}); };
    const core::Status s = exportCsv(r, exportOptions(), (dir.path() / "out.csv").string(), control);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, "the output already exists; choose a new name");
    EXPECT_EQ(s.error().path, (dir.path() / "out.json").string());
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string>{"out.json"});
    EXPECT_EQ(test::readBytes(dir.path() / "out.json"), std::vector<std::uint8_t>{'y'});
}

} // namespace
} // namespace lv::convert
