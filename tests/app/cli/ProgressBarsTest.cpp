// Progress on a terminal: the bar line's parts, the bars drawn in place by convert and batch under a
// pseudo-terminal, and no progress at all when stderr is not a terminal.
#include "support/TestSupport.h"

#include "ProgressBars.h"

#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lv::cli {
namespace {

TEST(ProgressLine, ShowsTheBarFractionRateAndTimeLeft)
{
    convert::JobProgress p;
    p.fraction = 0.5;
    p.samplesPerSecond = 21.44e6;
    p.etaSeconds = 95;
    EXPECT_EQ(progressLine("convert", p, 100),
              "convert  [############............]  50.0%  21.4 M samples/s  ETA 1:35");
    p.fraction = 0.0, p.samplesPerSecond = 0, p.etaSeconds = -1;
    EXPECT_EQ(progressLine("x", p, 100), "x  [........................]   0.0%  ETA --:--");
    p.fraction = 1.0, p.samplesPerSecond = 5000, p.etaSeconds = 3725;
    EXPECT_EQ(progressLine("y", p, 100), "y  [########################] 100.0%  5 k samples/s  ETA 1:02:05");
    // A long name keeps its end within the width.
    const std::string line = progressLine(std::string(100, 'a') + "end.edf", p, 80);
    EXPECT_EQ(line.size(), 80u - 1u);
    EXPECT_EQ(line.substr(0, 3), "...");
    EXPECT_NE(line.find("end.edf  ["), std::string::npos);
}

// Runs `command` with its output on a pseudo-terminal; the bytes it wrote and its exit status.
int runOnTerminal(const std::string& command, std::string& output)
{
    int master = -1;
    const pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
    if (pid == 0) {
        ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(master, buffer, sizeof buffer);
        if (n <= 0) break; // EIO once the child has closed the terminal
        output.append(buffer, static_cast<std::size_t>(n));
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(master);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class CliProgress : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_EQ(test::run(cli + " synth " + path("s.mefd") + " --channels 8 --hours 0.5 --fs 256 --seed 3"), 0);
    }
    std::string path(const std::string& name) const { return (dir.path() / name).string(); }
    const std::string cli = LONGVIEW_CLI;
    test::TempDir dir;
};

TEST_F(CliProgress, ConvertDrawsABarOnATerminalAndClearsIt)
{
    std::string out;
    ASSERT_EQ(runOnTerminal(cli + " convert " + path("s.mefd") + " " + path("o.edf"), out), 0) << out;
    EXPECT_EQ(out.rfind("\rconvert  [", 0), 0u) << out;
    EXPECT_NE(out.find(" samples/s  ETA "), std::string::npos) << out;
    EXPECT_EQ(out.substr(out.size() - 4), "\r\x1b[J") << out; // the bar is cleared at the end
}

TEST_F(CliProgress, BatchDrawsAJobLineAndAnOverallLine)
{
    std::string out;
    ASSERT_EQ(runOnTerminal(cli + " batch --to bdf --out " + path("out") + " " + path("s.mefd"), out), 0) << out;
    EXPECT_NE(out.find("\rs.mefd  ["), std::string::npos) << out;
    EXPECT_NE(out.find("\nbatch: 0 of 1 done  ["), std::string::npos) << out;
    EXPECT_NE(out.find("status "), std::string::npos) << out; // then the summary table
}

TEST_F(CliProgress, NothingButTheResultWhenStderrIsNoTerminal)
{
    std::string out;
    ASSERT_EQ(test::run(cli + " convert " + path("s.mefd") + " " + path("o.edf") + " 2>&1", &out), 0);
    EXPECT_EQ(out, "");
    ASSERT_EQ(runOnTerminal(cli + " convert " + path("s.mefd") + " " + path("o.csv") + " --end +1 --json", out), 0);
    EXPECT_EQ(out.find('\x1b'), std::string::npos) << out; // --json: no bars even on a terminal
    EXPECT_EQ(out.rfind("{", 0), 0u) << out;
}

} // namespace
} // namespace lv::cli
