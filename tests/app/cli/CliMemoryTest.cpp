// Peak memory of long conversions: 64 channels x 12 h converted MEF -> EDF+, MEF -> MEF and EDF+ -> MEF stay under
// a fixed bound and within a few MB of the same conversions of 1 h (memory flat in the recording's length).
// Measured as the child's ru_maxrss; skipped under the sanitizers (their shadow memory is not ours).
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lv::cli {
namespace {

namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

constexpr double kBoundMB = 160; // measured 40-60 MB on 2 threads (bench/README.md, H cells)

// Runs the CLI with `args` (output discarded); its peak RSS in MB, or -1 when it failed.
double peakRssOf(const std::vector<std::string>& args)
{
    std::vector<char*> argv{const_cast<char*>(LONGVIEW_CLI)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::fflush(stdout);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::freopen("/dev/null", "w", stdout);
        ::execv(LONGVIEW_CLI, argv.data());
        ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    return static_cast<double>(usage.ru_maxrss) / 1024;
}

class CliMemory : public ::testing::Test {
protected:
    void SetUp() override
    {
        if (kSanitized) GTEST_SKIP() << "peak RSS is not ours under the sanitizers";
    }
    std::string path(const std::string& name) const { return (m_dir.path() / name).string(); }
    test::TempDir m_dir;
};

TEST_F(CliMemory, TwelveHoursOfSixtyFourChannelsConvertWithinAFixedBoundFlatInLength)
{
    for (const char* hours : {"1", "12"}) {
        const std::string s = path(std::string("s") + hours + ".mefd");
        ASSERT_EQ(test::run(std::string(LONGVIEW_CLI) + " synth " + s + " --channels 64 --fs 256 --hours " + hours +
                            " --segment-minutes 60 > /dev/null"),
                  0);
    }
    struct Case {
        std::string what;
        std::vector<std::string> args1, args12;
    };
    const std::vector<Case> cases = {
        {"MEF to EDF+", {"convert", path("s1.mefd"), path("o1.edf")}, {"convert", path("s12.mefd"), path("o12.edf")}},
        {"MEF to MEF", {"convert", path("s1.mefd"), path("o1.mefd")}, {"convert", path("s12.mefd"), path("o12.mefd")}},
        {"EDF+ to MEF", {"convert", path("o1.edf"), path("e1.mefd")}, {"convert", path("o12.edf"), path("e12.mefd")}},
    };
    for (const Case& c : cases) {
        const double one = peakRssOf(c.args1), twelve = peakRssOf(c.args12);
        ASSERT_GT(one, 0) << c.what;
        ASSERT_GT(twelve, 0) << c.what;
        std::printf("%s: peak RSS %.1f MB for 1 h, %.1f MB for 12 h\n", c.what.c_str(), one, twelve);
        EXPECT_LT(twelve, kBoundMB) << c.what;
        EXPECT_LT(twelve, one * 1.1 + 30) << c.what << ": memory grows with the length";
    }
}

} // namespace
} // namespace lv::cli
