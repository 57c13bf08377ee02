// Crash safety: a child appending to a session is killed with SIGKILL at random moments. Every completed
// append must read back, validate must report the state, recover must leave a clean session.
#include "AppendPattern.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/SessionRecovery.h"
#include "formats/mef3/Validator.h"
#include "support/ChildProcess.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>
#include <random>

namespace lv::formats::mef3 {
namespace {

constexpr std::size_t kChannels = 4;

std::int64_t lastCommitted(const std::string& output)
{
    std::int64_t last = 0;
    for (std::size_t at = output.find("committed "); at != std::string::npos; at = output.find("committed ", at + 1))
        last = std::atoll(output.c_str() + at + 10);
    return last;
}

// Every channel holds at least `minimum` samples, all of them the pattern's, without gaps.
void expectPatternPrefix(const std::string& path, std::int64_t minimum)
{
    auto r = openMef3(path, {});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    ASSERT_EQ((*r)->info().channels.size(), kChannels);
    for (std::size_t c = 0; c < kChannels; ++c) {
        const core::ChannelInfo& ch = (*r)->info().channels[c];
        EXPECT_GE(ch.sampleCount, minimum) << ch.name;
        if (ch.sampleCount == 0) continue;
        EXPECT_TRUE(ch.gaps.empty()) << ch.name;
        const std::size_t channels[] = {c};
        auto got = core::readRange(**r, channels, {ch.start, ch.end}, {});
        ASSERT_TRUE(got.ok()) << got.error().describe();
        const std::vector<std::int32_t>& raw = got->front().raw;
        ASSERT_EQ(static_cast<std::int64_t>(raw.size()), ch.sampleCount);
        std::int64_t wrong = 0;
        for (std::size_t i = 0; i < raw.size(); ++i)
            wrong += raw[i] != test::appendSample(c, static_cast<std::int64_t>(i));
        EXPECT_EQ(wrong, 0) << ch.name;
    }
}

// Problems a killed append may leave: each names its cause.
void expectOnlyInterruptionProblems(const std::string& path)
{
    auto found = validateSession(path, "");
    ASSERT_TRUE(found.ok()) << found.error().describe();
    for (const Problem& p : *found) {
        const bool known = p.what.find("interrupted append") != std::string::npos ||
                           p.what.find("metadata counts") != std::string::npos;
        EXPECT_TRUE(known) << p.path << ": " << p.what;
    }
}

TEST(CrashSafety, KilledAppendsKeepEveryCompletedAppend)
{
    test::TempDir dir;
    const std::string path = (dir.path() / "crash.mefd").string();
    const std::string child = MEF3_APPEND_CHILD;
    ASSERT_EQ(test::runChild({child, path, std::to_string(kChannels), "0", "full"}).exitStatus, 0);
    std::mt19937 rng(20261130);
#if defined(__SANITIZE_ADDRESS__)
    constexpr int kMaxDelayUs = 400'000; // the child starts 2-3x slower under the sanitizers
#else
    constexpr int kMaxDelayUs = 150'000;
#endif
    std::uniform_int_distribution<int> delayUs(0, kMaxDelayUs);
    std::int64_t committed = 0;
    int killedDuringWork = 0;
    for (int round = 0; round < 24; ++round) {
        const char* mode = round % 2 ? "fast" : "full";
        const auto result = test::runChild({child, path, std::to_string(kChannels), "40", mode},
                                           std::chrono::microseconds(delayUs(rng)));
        ASSERT_EQ(result.output.find("error"), std::string::npos) << result.output;
        committed = std::max(committed, lastCommitted(result.output));
        killedDuringWork += result.killed && result.output.find("committed") != std::string::npos;
        SCOPED_TRACE("round " + std::to_string(round) + " (" + mode + "), committed " + std::to_string(committed));
        expectPatternPrefix(path, committed);
        expectOnlyInterruptionProblems(path);
        if (round % 3 == 2) {
            auto report = recoverSession(path, "");
            ASSERT_TRUE(report.ok()) << report.error().describe();
            auto clean = validateSession(path, "");
            ASSERT_TRUE(clean.ok());
            EXPECT_TRUE(clean->empty()) << clean->front().path << ": " << clean->front().what;
            expectPatternPrefix(path, committed);
        }
    }
    EXPECT_GT(killedDuringWork, 4); // the kills did land in the middle of appending
    const auto last = test::runChild({child, path, std::to_string(kChannels), "2", "full"});
    EXPECT_EQ(last.exitStatus, 0) << last.output;
    expectPatternPrefix(path, lastCommitted(last.output));
    auto clean = validateSession(path, "");
    ASSERT_TRUE(clean.ok());
    EXPECT_TRUE(clean->empty());
}

} // namespace
} // namespace lv::formats::mef3
