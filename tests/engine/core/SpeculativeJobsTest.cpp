// Every job commits exactly once; a stalled helper's job is finished by the caller; cancel and exceptions.
#include "core/SpeculativeJobs.h"

#include "support/ThreadRunner.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace lv::core {
namespace {

using namespace std::chrono_literals;

TEST(SpeculativeJobs, EveryJobCommitsExactlyOnceAndRunsAtMostTwice)
{
    for (std::size_t threads : {1u, 2u, 4u}) {
        WorkGate gate;
        std::vector<std::atomic<int>> runs(2000), commits(2000);
        {
            ThreadRunner runner(threads);
            const bool complete = runSpeculative(&runner, gate, runs.size(), [&](std::size_t j, JobCommit& commit) {
                runs[j].fetch_add(1);
                if (commit.claim()) commits[j].fetch_add(1);
            });
            EXPECT_TRUE(complete);
        }
        for (std::size_t j = 0; j < runs.size(); ++j) {
            ASSERT_EQ(commits[j].load(), 1) << j << " on " << threads << " threads";
            ASSERT_GE(runs[j].load(), 1);
            ASSERT_LE(runs[j].load(), 2);
        }
    }
}

// The helper stalls inside its first job (as a thread does when another process takes its core): the caller runs
// that job too and returns without waiting; the helper's late run does not commit, and the gate's owner waits for it.
TEST(SpeculativeJobs, TheCallerFinishesAStalledHelpersJobAndTheGateWaitsForTheHelper)
{
    auto gate = std::make_unique<WorkGate>();
    ThreadRunner runner(2);
    const std::thread::id caller = std::this_thread::get_id();
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> helperStalled{false}, helperClaimed{false}, helperDone{false};
    std::vector<std::atomic<int>> commits(8);
    const auto start = std::chrono::steady_clock::now();
    const bool complete = runSpeculative(&runner, *gate, commits.size(), [&](std::size_t j, JobCommit& commit) {
        if (std::this_thread::get_id() != caller && !helperStalled.exchange(true)) {
            released.wait_for(10s);
            helperClaimed = commit.claim();
            helperDone = true;
            return;
        }
        while (std::this_thread::get_id() == caller && !helperStalled) std::this_thread::yield();
        if (commit.claim()) commits[j].fetch_add(1);
    });
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_TRUE(complete);
    EXPECT_LT(took, 5s) << "the caller waited for the stalled helper";
    EXPECT_TRUE(helperStalled.load());
    EXPECT_FALSE(helperDone.load());
    for (const auto& c : commits) EXPECT_EQ(c.load(), 1);
    EXPECT_EQ(gate->held(), 1u);

    auto closing = std::async(std::launch::async, [&] { gate.reset(); });
    EXPECT_EQ(closing.wait_for(100ms), std::future_status::timeout) << "the gate closed under a running helper";
    release.set_value();
    closing.get();
    EXPECT_TRUE(helperDone.load());
    EXPECT_FALSE(helperClaimed.load());
}

TEST(SpeculativeJobs, ACancelledBatchCommitsNoFurtherJob)
{
    WorkGate gate;
    CancelToken cancel;
    std::atomic<int> commits{0};
    const bool complete = runSpeculative(
        nullptr, gate, 100,
        [&](std::size_t j, JobCommit& commit) {
            if (!commit.claim()) return;
            ++commits;
            if (j == 3) cancel.cancel();
        },
        &cancel);
    EXPECT_FALSE(complete);
    EXPECT_EQ(commits.load(), 4);
}

TEST(SpeculativeJobs, AThrowingRunFailsTheBatchAfterTheOtherJobsCommit)
{
    WorkGate gate;
    ThreadRunner runner(2);
    std::vector<std::atomic<int>> commits(50);
    EXPECT_THROW(runSpeculative(&runner, gate, commits.size(),
                                [&](std::size_t j, JobCommit& commit) {
                                    if (j == 17) throw std::runtime_error("boom");
                                    if (commit.claim()) commits[j].fetch_add(1);
                                }),
                 std::runtime_error);
    for (std::size_t j = 0; j < commits.size(); ++j) EXPECT_EQ(commits[j].load(), j == 17 ? 0 : 1) << j;
}

TEST(WorkGate, AClosedGateGivesNoPassAndClosingWaitsForThePassesHeld)
{
    auto gate = std::make_unique<WorkGate>();
    const WorkGate::Door door = gate->door();
    WorkGate::Pass pass = door.enter();
    ASSERT_TRUE(pass);
    EXPECT_EQ(gate->held(), 1u);
    auto closing = std::async(std::launch::async, [&] { gate.reset(); });
    EXPECT_EQ(closing.wait_for(100ms), std::future_status::timeout);
    pass = WorkGate::Pass();
    closing.get();
    EXPECT_FALSE(door.enter()) << "a pass from a gate that is gone";
}

} // namespace
} // namespace lv::core
