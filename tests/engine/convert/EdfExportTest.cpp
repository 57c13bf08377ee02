// MEF reference sessions to EDF+/BDF+ under each gap policy and back: values exact at the source's step (within
// half the written file's step where 16 bits force a coarser one), gaps and annotations kept; EDF+C/BDF+C output passes
// EDFbrowser's loader and MNE reads it to the value.
#include "convert/EdfExport.h"
#include "formats/edf/EdfIdentity.h"
#include "formats/edf/EdfRecording.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/SessionWriter.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace lv::convert {
namespace {

std::vector<double> physical(core::Recording& r, std::size_t c, core::TimeRange range)
{
    const std::size_t channels[] = {c};
    auto s = core::readRange(r, channels, range, {});
    EXPECT_TRUE(s.ok());
    return core::toPhysical(s->front(), r.info().channels[c].conversionFactor, r.info().channels[c].offset);
}

struct Case {
    std::string session;
    GapPolicy policy;
    bool bdf;
};

class EdfExportRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(EdfExportRoundTrip, ValuesGapsAndAnnotationsKept)
{
    const Case& c = GetParam();
    auto mef = formats::mef3::openMef3((lv::test::testdata() / "mef3/legacy" / c.session).string(), {});
    ASSERT_TRUE(mef) << mef.error().describe();
    lv::test::TempDir dir;
    const std::string out = (dir.path() / (c.bdf ? "out.bdf" : "out.edf")).string();
    auto result = exportEdf(
        **mef, {{}, {core::kNoTime + 1, std::numeric_limits<core::Uutc>::max()}, c.bdf, c.policy, 0.0}, out, {});
    ASSERT_TRUE(result) << result.error().describe();
    const core::RecordingInfo& src = (*mef)->info();
    std::size_t sourceAnnotations = 0, backAnnotations = 0;
    for (const std::string& file : result->files) {
        auto back = formats::edf::openEdf(file);
        ASSERT_TRUE(back) << back.error().describe();
        const core::RecordingInfo& info = (*back)->info();
        EXPECT_TRUE(info.warnings.empty()) << info.warnings.front();
        ASSERT_EQ(info.channels.size(), src.channels.size());
        for (std::size_t ch = 0; ch < src.channels.size(); ++ch) {
            const core::ChannelInfo& b = info.channels[ch];
            const core::TimeRange range{std::max(b.start, src.channels[ch].start),
                                        std::min(b.end, src.channels[ch].end)};
            const auto want = physical(**mef, ch, range), got = physical(**back, ch, range);
            ASSERT_EQ(want.size(), got.size());
            // At the source's step (its range fits the digital range; always for BDF) the physical range lies on
            // the source's grid: every count is written as itself shifted by a whole number, read back within the
            // 8-character header's precision (exact where the fields hold the grid, within a quarter of a step
            // where they cannot); a coarser step keeps values within half of it.
            const double sourceStep = std::abs(src.channels[ch].conversionFactor);
            const bool sameStep = std::abs(std::abs(b.conversionFactor) - sourceStep) <= 1e-3 * sourceStep;
            if (c.bdf) {
                EXPECT_TRUE(sameStep) << b.name;
            }
            const double tolerance = sameStep ? sourceStep * 0.25 : std::abs(b.conversionFactor) / 2 * (1 + 1e-9);
            for (std::size_t i = 0; i < want.size(); ++i) {
                if (std::isnan(want[i])) {
                    if (!std::isnan(got[i])) {
                        ASSERT_LE(std::abs(got[i]), tolerance) << i; // filled with 0 (and annotated), or a gap
                    }
                    continue;
                }
                ASSERT_LE(std::abs(want[i] - got[i]), tolerance) << file << " sample " << i;
            }
            if (c.policy == GapPolicy::Fill) {
                EXPECT_TRUE(b.gaps.empty());
            }
        }
        for (const core::Annotation& a : info.annotations) backAnnotations += a.text.rfind("Gap", 0) != 0;
        for (const core::Annotation& a : info.annotations) {
            if (a.text.rfind("Gap", 0) == 0) continue;
            const bool found =
                std::any_of(src.annotations.begin(), src.annotations.end(), [&](const core::Annotation& s) {
                    return s.time == a.time && s.durationUs == a.durationUs && a.text.find(s.text) != std::string::npos;
                });
            EXPECT_TRUE(found) << a.text;
        }
    }
    sourceAnnotations = src.annotations.size();
    EXPECT_EQ(backAnnotations, sourceAnnotations);
    // Source gaps longer than a record stay gaps (EDF+D) or split files; with fill, "Gap" annotations mark them.
    if (c.policy == GapPolicy::Split) {
        std::size_t longGaps = 0;
        for (const core::TimeRange& g : src.channels[0].gaps) longGaps += g.duration() >= 2'000'000;
        EXPECT_GE(result->files.size(), longGaps + 1);
    }
    // EDF+C/BDF+C: EDFbrowser's strict loader accepts each file.
    for (const std::string& file : result->files) {
        auto r = formats::edf::openEdf(file);
        if ((*r)->info().format.ends_with("+D")) continue;
        std::string output;
        EXPECT_EQ(lv::test::run(LONGVIEW_TESTDATA "/../tools/edfbrowser-check '" + file + "' 2>&1", &output), 0)
            << output;
    }
}

INSTANTIATE_TEST_SUITE_P(Mef, EdfExportRoundTrip,
                         ::testing::Values(Case{"multi_segment.mefd", GapPolicy::Discontinuous, false},
                                           Case{"multi_segment.mefd", GapPolicy::Split, true},
                                           Case{"multi_segment.mefd", GapPolicy::Fill, false},
                                           Case{"nan_gap_long.mefd", GapPolicy::Discontinuous, true},
                                           Case{"nan_gap_long.mefd", GapPolicy::Split, false},
                                           Case{"nan_gap_long.mefd", GapPolicy::Fill, true},
                                           Case{"with_annotations.mefd", GapPolicy::Fill, false},
                                           Case{"with_annotations.mefd", GapPolicy::Discontinuous, true},
                                           Case{"multi_channel.mefd", GapPolicy::Fill, true}),
                         [](const ::testing::TestParamInfo<Case>& p) {
                             std::string name = p.param.session.substr(0, p.param.session.find('.'));
                             name += p.param.policy == GapPolicy::Fill    ? "_fill"
                                     : p.param.policy == GapPolicy::Split ? "_split"
                                                                          : "_discontinuous";
                             return name + (p.param.bdf ? "_bdf" : "_edf");
                         });

TEST(EdfExportMne, MneReadsTheWrittenFileToTheValue)
{
    auto mef = formats::mef3::openMef3((lv::test::testdata() / "mef3/legacy/multi_channel.mefd").string(), {});
    ASSERT_TRUE(mef);
    lv::test::TempDir dir;
    const std::string out = (dir.path() / "out.edf").string();
    auto result = exportEdf(
        **mef, {{}, {core::kNoTime + 1, std::numeric_limits<core::Uutc>::max()}, false, GapPolicy::Fill, 0.0}, out, {});
    ASSERT_TRUE(result) << result.error().describe();
    auto back = formats::edf::openEdf(out);
    ASSERT_TRUE(back);
    std::string output;
    const std::string script =
        "import mne,sys\nr=mne.io.read_raw_edf(sys.argv[1],preload=True,verbose=False)\n"
        "u=r._raw_extras[0]['units']\nd=r.get_data()\n"
        "for i in range(len(r.ch_names)):\n  print(' '.join(repr(v/u[i]) for v in d[i][:2000]))\n";
    std::ofstream(dir.path() / "read.py") << script;
    ASSERT_EQ(lv::test::run("/usr/bin/python3 " + (dir.path() / "read.py").string() + " " + out + " 2>&1", &output), 0)
        << output;
    std::istringstream lines(output);
    for (std::size_t c = 0; c < (*back)->info().channels.size(); ++c) {
        const auto ours = physical(**back, c, {(*back)->info().start, (*back)->info().end});
        std::string line;
        ASSERT_TRUE(std::getline(lines, line));
        std::istringstream values(line);
        double v = 0;
        for (std::size_t i = 0; values >> v; ++i)
            ASSERT_NEAR(v, ours[i], 1e-9 * std::max(1.0, std::abs(v))) << c << " " << i;
    }
}

// EDF+D output against biosig (EDFbrowser refuses EDF+D by design): save2gdf marks the start of each record
// after a break with its time; those are every record our reader places, at our times (biosig keeps them as
// floats: within 50 us), and each left-out record lies in a gap of the source (a real session and a synthetic
// one with pauses).
TEST(EdfExportBiosig, EdfPlusDRecordStartsAgreeWithSave2gdf)
{
    lv::test::TempDir dir;
    const std::string synth = (dir.path() / "synth.mefd").string();
    std::string made;
    ASSERT_EQ(
        lv::test::run(std::string(LONGVIEW_CLI) + " synth " + synth + " --channels 2 --hours 0.5 --fs 256 2>&1", &made),
        0)
        << made;
    for (const std::string& session : {(lv::test::testdata() / "mef3/legacy/nan_gap_long.mefd").string(), synth}) {
        auto mef = formats::mef3::openMef3(session, {});
        ASSERT_TRUE(mef);
        const std::string out = (dir.path() / "d.edf").string();
        auto result = exportEdf(
            **mef,
            {{}, {core::kNoTime + 1, std::numeric_limits<core::Uutc>::max()}, false, GapPolicy::Discontinuous, 0.0},
            out, {});
        ASSERT_TRUE(result) << result.error().describe();
        auto back = formats::edf::openEdf(out);
        ASSERT_TRUE(back);
        ASSERT_EQ((*back)->info().format, "EDF+D");
        std::vector<core::Uutc> ours; // each record's start, from our reader's blocks (one per record)
        const core::ChannelInfo& ch = (*back)->info().channels[0];
        for (const core::BlockSpan& b : (*back)->blocks(0)) ours.push_back(ch.grid().timeOf(b.first));
        // biosig prints "hh:mm:ss.ffffff" with seconds that may round up to 60: add the fields up.
        const std::string script = "import json,sys,calendar\nt=sys.stdin.read();j=json.loads(t[t.index('{'):])\n"
                                   "for e in j['EVENT']:\n if e['TYP']=='0x7ffe':\n  d,c=e['TimeStamp'].split(' ')\n"
                                   "  y,mo,da=map(int,d.split('-'));h,mi,se=c.split(':')\n"
                                   "  day=calendar.timegm((y,mo,da,0,0,0))\n"
                                   "  print(round((day+int(h)*3600+int(mi)*60)*1e6+float(se)*1e6))\n";
        std::ofstream(dir.path() / "starts.py") << script;
        std::string output;
        ASSERT_EQ(lv::test::run("TZ=UTC save2gdf -JSON " + out + " 2>/dev/null | /usr/bin/python3 " +
                                    (dir.path() / "starts.py").string(),
                                &output),
                  0)
            << output;
        std::istringstream lines(output);
        std::vector<core::Uutc> theirs;
        for (core::Uutc t = 0; lines >> t;) theirs.push_back(t);
        ASSERT_EQ(theirs.size(), ours.size()) << session << "\n" << output;
        for (std::size_t i = 0; i < ours.size(); ++i) EXPECT_NEAR(theirs[i], ours[i], 50) << session << " " << i;
        const core::ChannelInfo& src = (*mef)->info().channels[0];
        EXPECT_FALSE(ch.gaps.empty()) << session;
        for (const core::TimeRange& g : ch.gaps)
            EXPECT_TRUE(std::any_of(src.gaps.begin(), src.gaps.end(),
                                    [&](const core::TimeRange& s) { return s.start <= g.start && g.end <= s.end; }))
                << session << ": [" << g.start << ", " << g.end << ")";
        std::filesystem::remove(out);
    }
}

// Subject fields go from a MEF session's section 3 (also through its snapshot) into the EDF+ patient field, where
// MNE finds them; the location has no EDF+ subfield.
TEST(EdfExportMne, SubjectFieldsReachTheEdfPatientField)
{
    namespace mef3 = formats::mef3;
    lv::test::TempDir dir;
    const std::string session = (dir.path() / "s.mefd").string(), snapshots = (dir.path() / "snap").string();
    mef3::WriterOptions writerOptions;
    writerOptions.subject = {"P-17", "Ann Lee", "", ""};
    writerOptions.recordingLocation = "Room 5";
    auto w = mef3::SessionWriter::create(session, writerOptions);
    ASSERT_TRUE(w) << w.error().describe();
    ASSERT_TRUE((*w)->addChannel({"Fz", 256.0, "uV", 0.5, ""}));
    ASSERT_TRUE((*w)->append(0, {1'600'000'000'000'000, 256.0}, 0, std::vector<std::int32_t>(2560, 7)));
    ASSERT_TRUE((*w)->finish());
    for (int open = 0; open < 2; ++open) { // the second open comes from the snapshot
        auto mef = mef3::openMef3(session, {"", snapshots});
        ASSERT_TRUE(mef) << mef.error().describe();
        EXPECT_EQ((*mef)->info().subject.id, "P-17");
        EXPECT_EQ((*mef)->info().subject.name, "Ann Lee");
        EXPECT_EQ((*mef)->info().site.location, "Room 5");
        EXPECT_EQ((*mef)->channelReadFromFiles(0), open == 0);
        const std::string out = (dir.path() / ("out" + std::to_string(open) + ".edf")).string();
        auto result = exportEdf(
            **mef, {{}, {core::kNoTime + 1, std::numeric_limits<core::Uutc>::max()}, false, GapPolicy::Fill, 0.0}, out,
            {});
        ASSERT_TRUE(result) << result.error().describe();
        auto back = formats::edf::openEdf(out);
        ASSERT_TRUE(back);
        EXPECT_EQ((*back)->header().patient, "P-17 X X Ann_Lee");
        EXPECT_EQ((*back)->header().recording, "Startdate 13-SEP-2020 X X X");
        std::string output;
        ASSERT_EQ(
            lv::test::run("/usr/bin/python3 -c \"import mne,sys; r=mne.io.read_raw_edf(sys.argv[1],verbose=False);"
                          "p=r._raw_extras[0]['subject_info']; print(p['id'], p['name'], p['sex'])\" " +
                              out + " 2>&1",
                          &output),
            0)
            << output;
        EXPECT_EQ(output, "P-17 Ann_Lee X\n");
    }
}

} // namespace
} // namespace lv::convert
