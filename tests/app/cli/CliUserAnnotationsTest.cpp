// The user's own annotations (the viewer's sidecar) go into every conversion: EDF+ TALs (read back by MNE too),
// MEF records, the CSV annotations file; --no-user-annotations leaves them out; a damaged sidecar fails the job
// naming the file and the problem.
#include "annotations/AnnotationSidecar.h"
#include "support/ChildProcess.h"
#include "support/TestSupport.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

lv::test::ChildResult runCli(std::vector<std::string> args)
{
    args.insert(args.begin(), LONGVIEW_CLI);
    return lv::test::runChild(args);
}

nlohmann::json infoOf(const fs::path& path)
{
    std::string out;
    EXPECT_EQ(lv::test::run(std::string(LONGVIEW_CLI) + " info --json '" + path.string() + "' 2>/dev/null", &out), 0);
    return nlohmann::json::parse(out, nullptr, false);
}

// The annotations of `info --json` whose text is one of the user's.
std::vector<nlohmann::json> usersOf(const nlohmann::json& info)
{
    std::vector<nlohmann::json> found;
    for (const auto& a : info["annotations"])
        if (a["text"].get<std::string>().find("mine:") != std::string::npos) found.push_back(a);
    return found;
}

class CliUserAnnotations : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_source = m_dir.path() / "night.mefd";
        const auto made =
            runCli({"synth", m_source.string(), "--channels", "3", "--hours", "0.02", "--fs", "256", "--seed", "3"});
        ASSERT_EQ(made.exitStatus, 0) << made.output;
        const nlohmann::json info = infoOf(m_source);
        m_start = info["start_uutc"].get<std::int64_t>();
        core::RecordingInfo recording;
        recording.path = m_source.string();
        recording.start = m_start;
        recording.end = info["end_uutc"].get<std::int64_t>();
        for (const auto& c : info["channels"]) {
            core::ChannelInfo channel;
            channel.name = c["name"].get<std::string>();
            recording.channels.push_back(channel);
        }
        m_marks = {{m_start + 12'000'000, 0, "Spike", "mine: sharp wave", recording.channels[1].name},
                   {m_start + 30'500'000, 4'000'000, "Seizure", "mine: onset", std::nullopt}};
        auto saved = annotations::saveSidecar(annotations::sidecarOf(recording, m_marks), m_source.string(), "");
        ASSERT_TRUE(saved) << saved.error().describe();
        m_sidecar = *saved;
    }

    void expectMarks(const fs::path& output)
    {
        const std::vector<nlohmann::json> found = usersOf(infoOf(output));
        ASSERT_EQ(found.size(), 2u) << output;
        for (std::size_t i = 0; i < 2; ++i) {
            EXPECT_EQ(found[i]["time_uutc"].get<std::int64_t>(), m_marks[i].time) << output;
            EXPECT_EQ(found[i]["duration_us"].get<std::int64_t>(), m_marks[i].durationUs) << output;
            // EDF+ has no type field: "Spike: mine: sharp wave", as for every typed annotation.
            EXPECT_TRUE(found[i]["text"].get<std::string>().ends_with(m_marks[i].text)) << output;
        }
    }

    lv::test::TempDir m_dir;
    fs::path m_source;
    std::string m_sidecar;
    std::int64_t m_start = 0;
    std::vector<core::Annotation> m_marks;
};

TEST_F(CliUserAnnotations, GoIntoEdfMefAndCsvAndSaySo)
{
    for (const char* name : {"out.edf", "out.bdf", "out.mefd"}) {
        const fs::path out = m_dir.path() / name;
        const auto r = runCli({"convert", m_source.string(), out.string()});
        ASSERT_EQ(r.exitStatus, 0) << r.output;
        EXPECT_NE(r.output.find("longview-cli: 2 of your annotations (from " + m_sidecar + ") went into the output"),
                  std::string::npos)
            << r.output;
        expectMarks(out);
    }
    // The channel annotation keeps its channel in MEF (EDF+ TALs have no channel field).
    const std::vector<nlohmann::json> mef = usersOf(infoOf(m_dir.path() / "out.mefd"));
    ASSERT_EQ(mef.size(), 2u);
    EXPECT_EQ(mef[0]["channel"], m_marks[0].channel.value());
    EXPECT_EQ(mef[0]["type"], "Note"); // MEF's record types: a Note, or with a duration an EDFA record
    EXPECT_EQ(mef[1]["type"], "EDFA");
    const fs::path csv = m_dir.path() / "out.csv";
    const auto r = runCli({"convert", m_source.string(), csv.string(), "--json"});
    ASSERT_EQ(r.exitStatus, 0) << r.output;
    const std::string json = r.output.substr(r.output.find('{'));
    const auto result = nlohmann::json::parse(json, nullptr, false);
    EXPECT_EQ(result["user_annotations"], 2) << json;
    EXPECT_EQ(result["annotation_file"], m_sidecar);
    std::ifstream file(m_dir.path() / "out.annotations.csv");
    const std::string text((std::istreambuf_iterator<char>(file)), {});
    EXPECT_NE(text.find("mine: sharp wave"), std::string::npos) << text;
    EXPECT_NE(text.find("mine: onset"), std::string::npos) << text;
}

// MNE, an independent reader, finds them in the EDF+ file at their onsets (seconds from the start).
TEST_F(CliUserAnnotations, MneReadsThemFromTheEdf)
{
    const fs::path out = m_dir.path() / "out.edf";
    ASSERT_EQ(runCli({"convert", m_source.string(), out.string()}).exitStatus, 0);
    std::string output;
    ASSERT_EQ(lv::test::run("/usr/bin/python3 -c \"import mne,sys; r=mne.io.read_raw_edf(sys.argv[1],verbose=False);"
                            "[print(repr(o), repr(d), t) for o, d, t in zip(r.annotations.onset, "
                            "r.annotations.duration, r.annotations.description) if 'mine:' in t]\" " +
                                out.string() + " 2>&1",
                            &output),
              0)
        << output;
    EXPECT_EQ(output, "12.0 0.0 Spike: mine: sharp wave\n30.5 4.0 Seizure: mine: onset\n");
}

TEST_F(CliUserAnnotations, LeftOutWhenAsked)
{
    const fs::path out = m_dir.path() / "out.edf";
    const auto r = runCli({"convert", m_source.string(), out.string(), "--no-user-annotations"});
    ASSERT_EQ(r.exitStatus, 0) << r.output;
    EXPECT_EQ(r.output.find("your annotations"), std::string::npos) << r.output;
    EXPECT_TRUE(usersOf(infoOf(out)).empty());
}

TEST_F(CliUserAnnotations, ADamagedSidecarFailsTheJobAndNamesIt)
{
    std::ofstream(m_sidecar, std::ios::trunc) << "{\"format\": \"longview-annotations\", \"version\": 1, ";
    const fs::path out = m_dir.path() / "out.edf";
    const auto r = runCli({"convert", m_source.string(), out.string()});
    EXPECT_EQ(r.exitStatus, 3) << r.output;
    EXPECT_NE(r.output.find(m_sidecar + ": not a Longview annotation file: its JSON does not read (at byte 49)"),
              std::string::npos)
        << r.output;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_EQ(runCli({"convert", m_source.string(), out.string(), "--no-user-annotations"}).exitStatus, 0);
}

} // namespace
} // namespace lv::cli
