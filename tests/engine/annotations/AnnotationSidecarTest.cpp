// The user's annotation sidecar: round trips through the file in recording times, where it is kept, and exact
// errors for files that are not one, are damaged or belong to another recording.
#include "support/TestSupport.h"

#include "annotations/AnnotationSidecar.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace lv::annotations {
namespace {

namespace fs = std::filesystem;

core::RecordingInfo recording(const std::string& path)
{
    core::RecordingInfo info;
    info.path = path;
    info.start = 1'735'689'600'000'000; // 2025-01-01
    info.end = info.start + 3'600'000'000;
    for (const char* name : {"Fp1", "Fp2", "ECG"}) {
        core::ChannelInfo channel;
        channel.name = name;
        info.channels.push_back(channel);
    }
    return info;
}

std::vector<core::Annotation> marks(const core::RecordingInfo& info)
{
    return {{info.start + 90'000'000, 0, "Spike", "sharp wave, left", std::string("Fp1")},
            {info.start + 5'000'000, 2'500'000, "Seizure", "onset \"typical\" \u00e9", std::nullopt},
            {info.end, 0, "Note", "", std::nullopt}};
}

void writeText(const fs::path& file, const std::string& text) { std::ofstream(file, std::ios::binary) << text; }

std::string errorOf(const std::string& text, const std::string& file = "x.json")
{
    auto parsed = parseSidecar(text, file);
    return parsed ? "parsed" : parsed.error().describe();
}

const std::string kHead = R"({"format": "longview-annotations", "version": 1,
  "recording": {"file": "a.edf", "duration_us": 1000, "channels": ["Fp1"]}, "annotations": [)";

TEST(AnnotationSidecar, RoundTripsInRecordingTimesSortedBeside)
{
    test::TempDir dir;
    const std::string path = (dir.path() / "night.edf").string();
    writeText(path, "not read");
    const core::RecordingInfo info = recording(path);
    auto saved = saveSidecar(sidecarOf(info, marks(info)), path, (dir.path() / "data").string());
    ASSERT_TRUE(saved) << saved.error().describe();
    EXPECT_EQ(*saved, path + ".longview-annotations.json");
    EXPECT_EQ(findSidecar(path, ""), *saved);
    auto back = readSidecar(*saved);
    ASSERT_TRUE(back) << back.error().describe();
    ASSERT_EQ(back->annotations.size(), 3u);
    EXPECT_EQ(back->annotations[0].time, 5'000'000); // from the start, in time order
    EXPECT_EQ(back->annotations[0].durationUs, 2'500'000);
    EXPECT_EQ(back->annotations[0].text, "onset \"typical\" \u00e9");
    EXPECT_FALSE(back->annotations[0].channel);
    EXPECT_EQ(back->annotations[1].channel, std::optional<std::string>("Fp1"));
    EXPECT_EQ(back->annotations[2].time, 3'600'000'000);
    EXPECT_EQ(back->recording.file, "night.edf");

    auto loaded = loadUserAnnotations(info, path, "");
    ASSERT_TRUE(loaded) << loaded.error().describe();
    ASSERT_EQ(loaded->size(), 3u);
    EXPECT_EQ((*loaded)[1].time, info.start + 90'000'000);
    EXPECT_EQ((*loaded)[1].type, "Spike");
    EXPECT_EQ((*loaded)[1].text, "sharp wave, left");
    EXPECT_EQ(formatSidecar(*back), formatSidecar(sidecarOf(info, *loaded))); // the file is stable
}

TEST(AnnotationSidecar, NoSidecarIsNoAnnotations)
{
    test::TempDir dir;
    auto loaded = loadUserAnnotations(recording((dir.path() / "x.edf").string()), (dir.path() / "x.edf").string(),
                                      dir.path().string());
    ASSERT_TRUE(loaded);
    EXPECT_TRUE(loaded->empty());
}

// Where the recording's folder takes no file there (here a folder in the sidecar's place; a read-only folder
// for a user other than root), the sidecar goes to the data folder and is found there.
TEST(AnnotationSidecar, KeptInTheDataFolderWhenItCannotBeBeside)
{
    test::TempDir dir;
    const std::string path = (dir.path() / "session.mefd").string();
    fs::create_directories(path);
    fs::create_directories(path + ".longview-annotations.json/blocked");
    const std::string data = (dir.path() / "data").string();
    const core::RecordingInfo info = recording(path);
    auto saved = saveSidecar(sidecarOf(info, marks(info)), path + "/", data);
    ASSERT_TRUE(saved) << saved.error().describe();
    EXPECT_EQ(fs::path(*saved).parent_path(), fs::path(data) / "annotations");
    EXPECT_EQ(*saved, sidecarInDataFolder(path, data)); // the same with or without the trailing slash
    EXPECT_EQ(findSidecar(path, data), *saved);
    auto loaded = loadUserAnnotations(info, path, data);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    EXPECT_EQ(loaded->size(), 3u);
}

TEST(AnnotationSidecar, AnotherRecordingsSidecarIsRefused)
{
    test::TempDir dir;
    const std::string path = (dir.path() / "night.edf").string();
    core::RecordingInfo info = recording(path);
    ASSERT_TRUE(saveSidecar(sidecarOf(info, marks(info)), path, ""));
    info.channels[2].name = "EKG";
    auto loaded = loadUserAnnotations(info, path, "");
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().describe(),
              path + ".longview-annotations.json: these annotations were made on another recording (its length or "
                     "channels differ)");
}

TEST(AnnotationSidecar, BadFilesAreNamedWithTheirProblem)
{
    EXPECT_EQ(errorOf("{\"format\": \"longview-annotations\", \"version\": 1,\n  oops}"),
              "x.json: not a Longview annotation file: its JSON does not read (at byte 51)");
    EXPECT_EQ(errorOf(kHead + R"({"onset_us": 1e308000, "duration_us": 0}]})"),
              "x.json: not a Longview annotation file: its JSON holds a number out of range");
    EXPECT_EQ(errorOf(kHead + R"({"onset_us": 1e300, "duration_us": 0}]})"),
              "x.json: not a Longview annotation file: annotation 1: \"onset_us\" is not a whole number");
    EXPECT_EQ(errorOf("[]"), "x.json: not a Longview annotation file: no \"format\": \"longview-annotations\"");
    EXPECT_EQ(errorOf(R"({"format": "longview-annotations", "version": 2})"),
              "x.json: annotation file version 2 is not 1 (made by a newer Longview?)");
    EXPECT_EQ(errorOf(R"({"format": "longview-annotations", "version": 1})"),
              "x.json: not a Longview annotation file: no \"recording\" object");
    EXPECT_EQ(errorOf(kHead + R"({"onset_us": 1001, "duration_us": 0}]})"),
              "x.json: not a Longview annotation file: annotation 1: \"onset_us\" 1001 is outside the recording (0 to "
              "1000)");
    EXPECT_EQ(
        errorOf(kHead + R"({"onset_us": 10, "duration_us": 0}, {"onset_us": 900, "duration_us": 101}]})"),
        "x.json: not a Longview annotation file: annotation 2: \"duration_us\" 101 runs past the recording's end");
    EXPECT_EQ(errorOf(kHead + R"({"onset_us": "10", "duration_us": 0}]})"),
              "x.json: not a Longview annotation file: annotation 1: \"onset_us\" is not a whole number");
    EXPECT_EQ(errorOf(kHead + R"({"onset_us": 1, "duration_us": 0, "channel": "Cz"}]})"),
              "x.json: not a Longview annotation file: annotation 1: channel \"Cz\" is not one of the recording's");
    EXPECT_EQ(errorOf(kHead + R"({"onset_us": 1, "duration_us": 0, "text": 5}]})"),
              "x.json: not a Longview annotation file: annotation 1: \"text\" is not text");
    EXPECT_EQ(errorOf(kHead + R"({"onset_us": 1, "duration_us": 0, "channel": "Fp1", "text": "ok"}]})"), "parsed");
}

TEST(AnnotationSidecar, ADamagedFileOnDiskIsNamed)
{
    test::TempDir dir;
    const std::string path = (dir.path() / "night.edf").string();
    writeText(path + ".longview-annotations.json", kHead); // cut short
    auto loaded = loadUserAnnotations(recording(path), path, "");
    ASSERT_FALSE(loaded);
    EXPECT_EQ(loaded.error().describe(), path +
                                             ".longview-annotations.json: not a Longview annotation file: its JSON "
                                             "does not read (at byte " +
                                             std::to_string(kHead.size()) + ")");
}

} // namespace
} // namespace lv::annotations
