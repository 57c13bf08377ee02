// Provenance: its text, and a MEF output's session description (every segment's section 2) read back as the
// recording's description, from the files and from the metadata snapshot; the recording's own path and format
// when no provenance is given.
#include "convert/Provenance.h"
#include "convert/MefExport.h"
#include "core/Version.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Metadata.h"
#include "support/MemoryRecording.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

constexpr core::Uutc kStart = 1'704'067'200'000'000; // 2024-01-01T00:00:00Z

test::MemoryRecording source()
{
    test::MemoryRecording r;
    r.addChannel("a", 256.0, kStart, 2560);
    r.addChannel("b", 256.0, kStart, 2560, 2, 100, 300);
    r.description.format = "EDF+D";
    r.description.path = "/data/r1.edf";
    return r;
}

MefExportOptions wholeOf(const core::Recording& r)
{
    MefExportOptions o;
    o.range = {r.info().start, r.info().end};
    return o;
}

// Every .tmet under `session`, with its section 2's session description.
std::vector<std::string> sessionDescriptions(const fs::path& session)
{
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(session)) {
        if (e.path().extension() != ".tmet") continue;
        const auto bytes = test::readBytes(e.path());
        auto m = formats::mef3::parseTimeSeriesMetadata(bytes, e.path().string(), {});
        EXPECT_TRUE(m.ok()) << e.path();
        if (m) out.push_back(m->section2.sessionDescription);
    }
    return out;
}

TEST(Provenance, TextNamesToolVersionFormatAndSourcesOrSaysItLeftThemOut)
{
    const std::string v = core::kVersion;
    Provenance p = provenanceOf({"/data/a.edf", "/data/b.mefd/"}, "merged (EDF+C, MEF 3.0)", false, false);
    EXPECT_EQ(p.sources, (std::vector<std::string>{"/data/a.edf", "/data/b.mefd"}));
    EXPECT_EQ(p.text(), "converted by Longview " + v + " from merged (EDF+C, MEF 3.0) /data/a.edf, /data/b.mefd");
    p = provenanceOf({"/data/a.edf"}, "EDF+C", true, true);
    EXPECT_TRUE(p.sources.empty());
    EXPECT_EQ(p.text(), "converted by Longview " + v + " from EDF+C (de-identified, dates shifted)");
    EXPECT_EQ(provenanceOf({"/data/a.edf"}, "EDF+C", false, true).text(),
              "converted by Longview " + v + " from EDF+C /data/a.edf (dates shifted)");
    EXPECT_EQ(Provenance{}.text(), "");
}

TEST(Provenance, AMefOutputCarriesItInEverySegmentAndReadsItBackAlsoFromItsSnapshot)
{
    test::MemoryRecording r = source();
    test::TempDir dir;
    const fs::path out = dir.path() / "out.mefd";
    MefExportOptions o = wholeOf(r);
    o.provenance = provenanceOf({"/data/r1.edf"}, "EDF+D", false, false);
    ASSERT_TRUE(exportMef(r, o, out.string(), {}).ok());
    const std::string want = "converted by Longview " + std::string(core::kVersion) + " from EDF+D /data/r1.edf";
    const auto stored = sessionDescriptions(out);
    ASSERT_EQ(stored.size(), 2u);
    for (const std::string& d : stored) EXPECT_EQ(d, want);

    const std::string snapshots = (dir.path() / "snapshots").string();
    for (int open = 0; open < 2; ++open) { // the files, then the snapshot
        auto back = formats::mef3::openMef3(out.string(), {"", snapshots});
        ASSERT_TRUE(back.ok()) << back.error().describe();
        EXPECT_EQ((*back)->channelsReadFromFiles(), open == 0 ? 2u : 0u);
        EXPECT_EQ((*back)->info().description, want);
    }
}

TEST(Provenance, WithoutOneAMefOutputNamesTheRecordingsPathAndFormat)
{
    test::MemoryRecording r = source();
    test::TempDir dir;
    const fs::path out = dir.path() / "out.mefd";
    ASSERT_TRUE(exportMef(r, wholeOf(r), out.string(), {}).ok());
    auto back = formats::mef3::openMef3(out.string(), {});
    ASSERT_TRUE(back.ok());
    EXPECT_EQ((*back)->info().description,
              "converted by Longview " + std::string(core::kVersion) + " from EDF+D /data/r1.edf");
}

TEST(Provenance, AMefOutputBefore1970IsRefusedNamingIt)
{
    test::MemoryRecording r;
    r.addChannel("a", 256.0, -86'400'000'000, 2560); // 1969-12-31
    test::TempDir dir;
    const fs::path out = dir.path() / "old.mefd";
    const core::Status s = exportMef(r, wholeOf(r), out.string(), {});
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, core::ErrorCode::InvalidArgument);
    EXPECT_EQ(s.error().path, out.string());
    EXPECT_EQ(
        s.error().message,
        "MEF 3.0 holds times from 1970-01-01 on, and this output would start at 1969-12-31T00:00:00.000000+00:00");
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

} // namespace
} // namespace lv::convert
