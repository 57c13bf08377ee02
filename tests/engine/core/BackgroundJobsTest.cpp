// start() returns while helpers run; finish() runs what no helper started on the caller and waits for the rest;
// every job runs once; exceptions come back; the destructor drops what was not started and waits for what was.
#include "core/BackgroundJobs.h"

#include "support/ThreadRunner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

namespace lv::core {
namespace {

using namespace std::chrono_literals;

// Waits (at most 10 s) until flag is set.
bool waitFor(const std::atomic<bool>& flag)
{
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (!flag && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    return flag;
}

// A batch whose helper stalls in its first job until released; records where each job ran.
struct StalledBatch {
    std::thread::id caller = std::this_thread::get_id();
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> stalled{false}, stalledDone{false};
    std::vector<std::atomic<int>> runs = std::vector<std::atomic<int>>(4);
    std::vector<std::atomic<bool>> onCaller = std::vector<std::atomic<bool>>(4);

    void job(std::size_t i)
    {
        ++runs[i];
        onCaller[i] = std::this_thread::get_id() == caller;
        if (onCaller[i] || stalled.exchange(true)) return;
        released.wait_for(10s);
        stalledDone = true;
    }
};

TEST(BackgroundJobs, StartReturnsAndFinishRunsWhatNoHelperStartedThenWaitsForTheRest)
{
    ThreadRunner runner(2);
    StalledBatch b;
    BackgroundJobs jobs;
    const auto begin = std::chrono::steady_clock::now();
    jobs.start(&runner, b.runs.size(), [&](std::size_t i) { b.job(i); });
    EXPECT_LT(std::chrono::steady_clock::now() - begin, 5s) << "start waited for its jobs";
    ASSERT_TRUE(waitFor(b.stalled));
    auto releaser = std::async(std::launch::async, [&] {
        std::this_thread::sleep_for(100ms);
        b.release.set_value();
    });
    jobs.finish();
    EXPECT_TRUE(b.stalledDone.load()) << "finish returned before the helper's job was done";
    EXPECT_FALSE(jobs.started());
    EXPECT_FALSE(b.onCaller[0].load());
    for (std::size_t i = 0; i < b.runs.size(); ++i) {
        EXPECT_EQ(b.runs[i].load(), 1) << i;
        if (i > 0) {
            EXPECT_TRUE(b.onCaller[i].load()) << "job " << i << " waited for the stalled helper";
        }
    }
    releaser.get();
}

TEST(BackgroundJobs, RunOneHereTakesAJobNoHelperStartedAndDoneSaysWhetherFinishWouldWait)
{
    BackgroundJobs none;
    EXPECT_TRUE(none.done());
    EXPECT_FALSE(none.runOneHere());

    ThreadRunner runner(2);
    StalledBatch b;
    BackgroundJobs jobs;
    jobs.start(&runner, 2, [&](std::size_t i) { b.job(i); });
    ASSERT_TRUE(waitFor(b.stalled));
    EXPECT_FALSE(jobs.done());
    EXPECT_TRUE(jobs.runOneHere());
    EXPECT_TRUE(b.onCaller[1].load());
    EXPECT_FALSE(jobs.runOneHere()) << "no job is left to start";
    EXPECT_FALSE(jobs.done()) << "the helper's job is still running";
    b.release.set_value();
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (!jobs.done() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(1ms);
    EXPECT_TRUE(jobs.done());
    EXPECT_TRUE(b.stalledDone.load());
    jobs.finish();
    EXPECT_EQ(b.runs[0].load() + b.runs[1].load(), 2);
}

TEST(BackgroundJobs, EveryJobRunsOnceWhateverTheThreads)
{
    for (const std::size_t threads : {0u, 1u, 2u, 4u}) {
        std::vector<std::atomic<int>> runs(1000);
        {
            ThreadRunner runner(std::max<std::size_t>(threads, 1));
            BackgroundJobs jobs;
            for (int round = 0; round < 2; ++round) // a second start finishes the first batch
                jobs.start(threads == 0 ? nullptr : &runner, runs.size(), [&](std::size_t i) { ++runs[i]; });
            jobs.finish();
            jobs.finish(); // nothing started: nothing to do
        }
        for (std::size_t i = 0; i < runs.size(); ++i) ASSERT_EQ(runs[i].load(), 2) << i << " on " << threads;
    }
}

// A runner that says it has no thread (or one: the caller's) gets no helper; the caller runs every job.
TEST(BackgroundJobs, ARunnerWithoutOtherThreadsGetsNoHelper)
{
    for (const std::size_t threads : {0u, 1u}) {
        ThreadRunner runner(threads);
        BackgroundJobs jobs;
        std::atomic<int> ran{0};
        jobs.start(&runner, 3, [&](std::size_t) { ++ran; });
        EXPECT_EQ(runner.posted(), 0u) << threads << " threads";
        jobs.finish();
        EXPECT_EQ(ran.load(), 3);
    }
}

TEST(BackgroundJobs, AJobsExceptionComesBackFromFinish)
{
    ThreadRunner runner(2);
    BackgroundJobs jobs;
    std::atomic<int> ran{0};
    jobs.start(&runner, 50, [&](std::size_t i) {
        ++ran;
        if (i == 7) throw std::runtime_error("job 7 failed");
    });
    EXPECT_THROW(
        {
            try {
                jobs.finish();
            } catch (const std::runtime_error& e) {
                EXPECT_STREQ(e.what(), "job 7 failed");
                throw;
            }
        },
        std::runtime_error);
    EXPECT_EQ(ran.load(), 50);
    EXPECT_NO_THROW(jobs.finish());
}

TEST(BackgroundJobs, TheDestructorDropsJobsNotStartedAndWaitsForTheRunningOne)
{
    ThreadRunner runner(2);
    StalledBatch b;
    std::future<void> releaser;
    {
        BackgroundJobs jobs;
        jobs.start(&runner, b.runs.size(), [&](std::size_t i) { b.job(i); });
        ASSERT_TRUE(waitFor(b.stalled));
        releaser = std::async(std::launch::async, [&] {
            std::this_thread::sleep_for(100ms);
            b.release.set_value();
        });
    }
    EXPECT_TRUE(b.stalledDone.load()) << "the destructor returned under a running job";
    EXPECT_EQ(b.runs[0].load(), 1);
    for (std::size_t i = 1; i < b.runs.size(); ++i) EXPECT_EQ(b.runs[i].load(), 0) << "dropped job " << i << " ran";
    releaser.get();
}

} // namespace
} // namespace lv::core
