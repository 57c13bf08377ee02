// Annotation files: CSV and EDF+ round trips (texts that need quoting, formula guards, durations, channels), the
// EDF+ file checked by EDFbrowser's strict loader and MNE, a reference hypnogram imported, exact errors.
#include "support/TestSupport.h"

#include "convert/AnnotationFiles.h"
#include "formats/RecordingOpener.h"

#include <fstream>
#include <gtest/gtest.h>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

core::RecordingInfo recording()
{
    core::RecordingInfo info;
    info.path = "night.edf";
    info.start = 1'735'689'600'250'000; // 2025-01-01T00:00:00.25: a start between whole seconds
    info.end = info.start + 3'600'000'000;
    for (const char* name : {"Fp1", "Fp2"}) {
        core::ChannelInfo channel;
        channel.name = name;
        info.channels.push_back(channel);
    }
    return info;
}

std::vector<core::Annotation> marks(const core::RecordingInfo& info)
{
    return {{info.start, 0, "Note", "start", std::nullopt},
            {info.start + 12'500'000, 2'000'000, "Seizure", "onset, \"typical\"\nleft", std::nullopt},
            {info.start + 90'000'001, 0, "Spike", "=1+2", std::string("Fp2")},
            {info.end, 0, "Note", "caf\u00e9 end", std::nullopt}};
}

TEST(AnnotationFiles, CsvRoundTripsEveryField)
{
    test::TempDir dir;
    const core::RecordingInfo info = recording();
    const std::string path = (dir.path() / "marks.csv").string();
    ASSERT_TRUE(writeAnnotationFile(marks(info), info, path));
    auto back = readAnnotationFile(path, info);
    ASSERT_TRUE(back) << back.error().describe();
    const std::vector<core::Annotation> expected = marks(info);
    ASSERT_EQ(back->size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ((*back)[i].time, expected[i].time) << i;
        EXPECT_EQ((*back)[i].durationUs, expected[i].durationUs) << i;
        EXPECT_EQ((*back)[i].type, expected[i].type) << i;
        EXPECT_EQ((*back)[i].text, expected[i].text) << i;
        EXPECT_EQ((*back)[i].channel, expected[i].channel) << i;
    }
}

// Without ISO onsets (relative times), the seconds count from the recording's start; a decimal comma reads too.
TEST(AnnotationFiles, CsvSecondsFromTheStart)
{
    test::TempDir dir;
    const core::RecordingInfo info = recording();
    const fs::path path = dir.path() / "marks.csv";
    std::ofstream(path) << "onset_iso;onset_seconds;duration_seconds;type;text;channel\n;1,5;0,25;Note;x;Fp1\n\n";
    auto back = readAnnotationFile(path.string(), info);
    ASSERT_TRUE(back) << back.error().describe();
    ASSERT_EQ(back->size(), 1u);
    EXPECT_EQ(back->front().time, info.start + 1'500'000);
    EXPECT_EQ(back->front().durationUs, 250'000);
}

TEST(AnnotationFiles, EdfRoundTripsAndOtherReadersTakeIt)
{
    test::TempDir dir;
    const core::RecordingInfo info = recording();
    const std::string path = (dir.path() / "marks.edf").string();
    ASSERT_TRUE(writeAnnotationFile(marks(info), info, path));
    auto back = readAnnotationFile(path, info);
    ASSERT_TRUE(back) << back.error().describe();
    ASSERT_EQ(back->size(), 4u);
    EXPECT_EQ((*back)[1].time, info.start + 12'500'000);
    EXPECT_EQ((*back)[1].durationUs, 2'000'000);
    EXPECT_EQ((*back)[1].text, "Seizure: onset, \"typical\" left"); // no type field in EDF+; line breaks as spaces
    EXPECT_EQ((*back)[2].time, info.start + 90'000'001);
    EXPECT_EQ((*back)[2].text, "Spike: =1+2");
    EXPECT_EQ((*back)[3].text, "caf\u00e9 end");

    std::string output;
    EXPECT_EQ(test::run(LONGVIEW_TESTDATA "/../tools/edfbrowser-check '" + path + "' 2>&1", &output), 0) << output;
    ASSERT_EQ(test::run("/usr/bin/python3 -c \"import mne,sys; a=mne.read_annotations(sys.argv[1]);"
                        "[print(repr(o), repr(d), t) for o, d, t in zip(a.onset, a.duration, a.description)]\" " +
                            path + " 2>&1",
                        &output),
              0)
        << output;
    // MNE counts onsets from the first record's time (the start, 0.25 s after the header's whole second).
    EXPECT_EQ(output, "0.0 0.0 start\n12.5 2.0 Seizure: onset, \"typical\" left\n90.000001 0.0 Spike: =1+2\n"
                      "3600.0 0.0 caf\u00e9 end\n");
}

TEST(AnnotationFiles, AReferenceHypnogramImports)
{
    const std::string path = (test::testdata() / "edf/SC4001EC-Hypnogram.edf").string();
    auto source = formats::openRecording({path, "", ""});
    ASSERT_TRUE(source) << source.error().describe();
    core::RecordingInfo info = recording();
    info.start = (*source)->info().start;
    info.end = info.start + 86'400'000'000;
    auto back = readAnnotationFile(path, info);
    ASSERT_TRUE(back) << back.error().describe();
    ASSERT_EQ(back->size(), (*source)->info().annotations.size());
    EXPECT_EQ(back->front().text, "Sleep stage W");
    EXPECT_EQ(back->front().type, "Note");
    info.end = info.start + 3'600'000'000; // a recording too short for it
    auto refused = readAnnotationFile(path, info);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().describe().find("lies outside this recording"), std::string::npos);
}

TEST(AnnotationFiles, BadFilesAreNamedWithTheRow)
{
    test::TempDir dir;
    const core::RecordingInfo info = recording();
    const auto errorOf = [&](const std::string& text) {
        const fs::path path = dir.path() / "bad.csv";
        std::ofstream(path, std::ios::trunc) << text;
        auto r = readAnnotationFile(path.string(), info);
        return r ? std::string("read") : r.error().describe();
    };
    const std::string head = "onset_iso,onset_seconds,duration_seconds,type,text,channel\n";
    const std::string file = (dir.path() / "bad.csv").string();
    EXPECT_EQ(errorOf("time,text\n"), file + ": not an annotations CSV: the first row must start with \"onset_iso\"");
    EXPECT_EQ(errorOf(head + ",1,0,Note,a,\n,2,0,Note,b,Cz\n"), file + ": row 3: this recording has no channel \"Cz\"");
    EXPECT_EQ(errorOf(head + ",1,0,Note,a\n"), file + ": row 2: has 5 cells, not 6");
    EXPECT_EQ(errorOf(head + ",x,0,Note,a,\n"), file + ": row 2: the onset \"x\" is not a number of seconds");
    EXPECT_EQ(errorOf(head + ",1,-1,Note,a,\n"), file + ": row 2: the duration \"-1\" is not a number of seconds");
    EXPECT_EQ(errorOf(head + ",7200,0,Note,a,\n"), file + ": row 2: the onset lies outside this recording");
    EXPECT_EQ(errorOf(head + "2024-13-01T00:00:00Z,0,0,Note,a,\n").substr(0, file.size() + 8), file + ": row 2:");
    EXPECT_EQ(writeAnnotationFile({}, info, (dir.path() / "x.txt").string()).error().describe(),
              (dir.path() / "x.txt").string() + ": annotations are written as .csv or .edf");
}

} // namespace
} // namespace lv::convert
