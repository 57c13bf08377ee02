// longview-cli on absurd field values and under SIGTERM: exit 3 with the field's file, offset and value, never a
// hang (each run has a deadline) or an abort; SIGTERM cancels like Ctrl-C (exit 130, no temporaries left).
#include "support/ChildProcess.h"
#include "support/MefPatch.h"
#include "support/TestSupport.h"

#include "core/LittleEndian.h"
#include "formats/mef3/UniversalHeader.h"

#include <gtest/gtest.h>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::string cli() { return LONGVIEW_CLI; }

test::ChildResult runCli(std::vector<std::string> args, std::chrono::milliseconds timeout = 60s,
                         std::optional<test::ChildSignal> signal = std::nullopt)
{
    args.insert(args.begin(), cli());
    return test::runChildWithin(args, timeout, signal);
}

std::vector<std::string> entriesOf(const fs::path& folder)
{
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(folder)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

// The meflib session with one field of LA1's segment replaced (CRCs sealed again, as a writer would).
class CliBounds : public ::testing::Test {
protected:
    void SetUp() override
    {
        session = dir.path() / "in/s.mefd";
        out = dir.path() / "out";
        fs::create_directories(out);
        fs::create_directories(session.parent_path());
        test::copyTree(test::testdata() / "mef3/meflib/meflib_rto.mefd", session);
    }
    fs::path segmentFile(const std::string& ext) const { return test::meflibRtoSegmentFile(session, ext); }
    template <typename T>
    void patch(const std::string& ext, std::size_t offset, T value)
    {
        test::patchSealed(segmentFile(ext), offset, value);
    }

    test::TempDir dir;
    fs::path session, out;
};

TEST_F(CliBounds, AbsurdSamplingFrequenciesExit3NamingTheFieldWithoutHanging)
{
    for (const auto& [fs, text] :
         {std::pair{1e300, "1e+300"}, std::pair{1e-300, "1e-300"}, std::pair{1e9, "1000000000"}}) {
        patch("tmet", 8720, fs);
        const std::string expected = "longview-cli: " + segmentFile("tmet").string() + ": sampling frequency " + text +
                                     " Hz is outside [1e-06, 1000000] Hz (at byte 8720) (the file is damaged)\n";
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"stats", session.string()},
              std::vector<std::string>{"convert", session.string(), (out / "x.csv").string()}}) {
            const auto r = runCli(args, 30s);
            EXPECT_FALSE(r.killed) << args[0] << " " << text << " hangs";
            EXPECT_EQ(r.exitStatus, 3) << r.output;
            EXPECT_EQ(r.output, expected);
            EXPECT_EQ(entriesOf(out), std::vector<std::string>{});
        }
    }
}

TEST_F(CliBounds, AbsurdEdfRecordDurationsExit3NamingTheField)
{
    const auto original = test::readBytes(test::testdata() / "edf/test_generator.edf");
    const fs::path file = dir.path() / "in/d.edf";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"1e-300  ", ": the duration of a data record, 1e-300 s, is below 1 microsecond (the resolution of recording "
                     "times) (at byte 244)"},
        {"0.00001 ", ": signal 1's sampling rate 20000000 Hz is outside [1e-06, 1000000] Hz (200 samples a record of "
                     "1e-05 s) (at byte 2848)"},
    };
    for (const auto& [duration, message] : cases) {
        auto bytes = original;
        std::copy(duration.begin(), duration.end(), bytes.begin() + 244);
        test::writeBytes(file, bytes);
        for (const std::vector<std::string>& args :
             {std::vector<std::string>{"stats", file.string()},
              std::vector<std::string>{"convert", file.string(), (out / "x.csv").string()}}) {
            const auto r = runCli(args, 30s);
            EXPECT_FALSE(r.killed) << args[0] << " " << duration << " hangs";
            EXPECT_EQ(r.exitStatus, 3) << r.output;
            EXPECT_EQ(r.output, "longview-cli: " + file.string() + message + " (the file is damaged)\n");
            EXPECT_EQ(entriesOf(out), std::vector<std::string>{});
        }
    }
}

TEST_F(CliBounds, AnIndexEntryOfFourBillionSamplesIsAGapWithAWarningNotAnAbort)
{
    patch("tidx", 1024 + 3 * 56 + 24, std::uint32_t{0xFFFFFFFF});
    const std::string warning = "longview-cli: warning: " + segmentFile("tidx").string() +
                                ": index entry 3 (at byte 1192) claims 4294967295 samples, more than a RED block "
                                "holds (16777216): its samples are missing\n";
    const auto convert = runCli({"convert", session.string(), (out / "x.csv").string()}, 60s);
    EXPECT_FALSE(convert.killed);
    EXPECT_EQ(convert.exitStatus, 0) << convert.output;
    EXPECT_NE(convert.output.find(warning), std::string::npos) << convert.output;
    EXPECT_EQ(entriesOf(out), (std::vector<std::string>{"x.annotations.csv", "x.csv", "x.json"}));
    const auto stats = runCli({"stats", session.string()}, 60s);
    EXPECT_EQ(stats.exitStatus, 0) << stats.output;
    EXPECT_NE(stats.output.find(warning), std::string::npos) << stats.output;
}

// A session long enough that none of the commands below ends within the signal's delay.
class CliSigterm : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dir = new test::TempDir;
        s_session = s_dir->path() / "long.mefd";
        // 88 M samples: stats on one thread takes over 1.5 s on a quiet machine.
        const auto r = runCli({"synth", s_session.string(), "--channels", "16", "--hours", "6", "--no-gaps"}, 600s);
        ASSERT_EQ(r.exitStatus, 0) << r.output;
    }
    static void TearDownTestSuite() { delete s_dir; }

    static test::TempDir* s_dir;
    static fs::path s_session;
    test::TempDir dir;
};

test::TempDir* CliSigterm::s_dir = nullptr;
fs::path CliSigterm::s_session;

constexpr test::ChildSignal kTermAfter{std::chrono::milliseconds(700), 15};
constexpr auto kCancelBound = 700ms + 3s; // the signal's delay, and the time the command may take to stop

TEST_F(CliSigterm, ConvertToEveryTargetExits130AndLeavesNothing)
{
    for (const char* target : {"out.csv", "out.edf", "out.bdf", "out.mefd"}) {
        const auto r = runCli({"convert", s_session.string(), (dir.path() / target).string()}, 60s, kTermAfter);
        EXPECT_FALSE(r.killed) << target;
        EXPECT_EQ(r.exitStatus, 130) << target << ": " << r.output;
        EXPECT_LT(r.elapsed, kCancelBound) << target;
        EXPECT_EQ(entriesOf(dir.path()), std::vector<std::string>{}) << target;
    }
}

TEST_F(CliSigterm, StatsAndSynthExit130)
{
    const auto stats = runCli({"stats", s_session.string(), "--threads", "1"}, 60s, kTermAfter);
    EXPECT_EQ(stats.exitStatus, 130) << stats.output;
    EXPECT_LT(stats.elapsed, kCancelBound);
    const auto synth =
        runCli({"synth", (dir.path() / "s.mefd").string(), "--channels", "64", "--hours", "8"}, 60s, kTermAfter);
    EXPECT_EQ(synth.exitStatus, 130) << synth.output;
    EXPECT_LT(synth.elapsed, kCancelBound);
    EXPECT_EQ(entriesOf(dir.path()), std::vector<std::string>{});
}

} // namespace
} // namespace lv::cli
