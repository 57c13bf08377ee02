// The job system: a queue goes on after a failing job, the memory budget keeps jobs that do not fit apart,
// cancellation while waiting for memory, one job cancelled alone, and progress as fraction, rate and time left.
#include "support/TestSupport.h"

#include "convert/JobQueue.h"
#include "convert/SynthExport.h"

#include <atomic>
#include <chrono>
#include <gtest/gtest.h>
#include <thread>

namespace lv::convert {
namespace {

namespace fs = std::filesystem;

class JobQueueing : public ::testing::Test {
protected:
    void SetUp() override
    {
        SynthOptions o;
        o.channels = 4;
        o.hours = 0.05;
        ASSERT_TRUE(writeSynthSession(o, (dir.path() / "s.mefd").string(), {}).ok());
    }
    ConvertJob job(const std::string& input, const std::string& output) const
    {
        ConvertJob j;
        j.inputs = {(dir.path() / input).string()};
        j.output = (dir.path() / output).string();
        return j;
    }
    test::TempDir dir;
};

TEST_F(JobQueueing, AFailingJobIsRecordedAndTheOthersFinish)
{
    const std::vector<ConvertJob> jobs = {job("s.mefd", "a.edf"), job("missing.mefd", "b.edf"), job("s.mefd", "c.csv"),
                                          job("s.mefd", "d.mefd")};
    const auto results = runJobs(jobs, {2, 2, nullptr, 0});
    ASSERT_EQ(results.size(), 4u);
    EXPECT_TRUE(results[0].ok) << results[0].error.describe();
    EXPECT_FALSE(results[1].ok);
    EXPECT_EQ(results[1].error.code, core::ErrorCode::NotFound);
    EXPECT_TRUE(results[2].ok) << results[2].error.describe();
    EXPECT_TRUE(results[3].ok) << results[3].error.describe();
    EXPECT_TRUE(fs::exists(dir.path() / "a.edf"));
    EXPECT_FALSE(fs::exists(dir.path() / "b.edf"));
    EXPECT_TRUE(fs::exists(dir.path() / "c.csv"));
    EXPECT_TRUE(fs::is_directory(dir.path() / "d.mefd"));
    // 4 channels x 0.05 h at 256 Hz, each counted per channel.
    ASSERT_EQ(results[0].perChannel.size(), 4u);
    EXPECT_EQ(results[0].perChannel[0].name, "ch001");
    EXPECT_EQ(results[0].perChannel[0].samples, 46080);
    EXPECT_EQ(results[0].samples, 4 * 46080);
    EXPECT_EQ(results[1].samples, 0);
}

TEST_F(JobQueueing, AJobCancelledAloneLeavesNothingAndTheOthersFinish)
{
    const std::vector<ConvertJob> jobs = {job("s.mefd", "a.csv"), job("s.mefd", "b.edf"), job("s.mefd", "c.csv")};
    std::vector<core::CancelToken> tokens(jobs.size());
    QueueOptions options{1, 2, nullptr, 0};
    options.jobCancel = &tokens;
    QueueEvents events;
    events.progress = [&](std::size_t i, const JobProgress&) { // job a, once it writes; c before it starts
        if (i == 0) tokens[0].cancel(), tokens[2].cancel();
    };
    const auto results = runJobs(jobs, options, events);
    EXPECT_EQ(results[0].error.code, core::ErrorCode::Cancelled);
    EXPECT_TRUE(results[1].ok) << results[1].error.describe();
    EXPECT_EQ(results[2].error.code, core::ErrorCode::Cancelled);
    EXPECT_FALSE(fs::exists(dir.path() / "a.csv"));
    EXPECT_TRUE(fs::exists(dir.path() / "b.edf"));
    EXPECT_FALSE(fs::exists(dir.path() / "c.csv"));
    for (const auto& entry : fs::directory_iterator(dir.path())) // no temporary left
        EXPECT_TRUE(entry.path().filename() == "s.mefd" || entry.path().filename() == "b.edf") << entry.path();
}

TEST_F(JobQueueing, JobsThatDoNotFitTheMemoryBudgetTogetherRunOneAfterTheOther)
{
    const std::vector<ConvertJob> jobs = {job("s.mefd", "a.edf"), job("s.mefd", "b.csv"), job("s.mefd", "c.mefd"),
                                          job("s.mefd", "d.edf")};
    MemoryBudget budget(1); // no two jobs fit: they hold their shares one at a time (one job always runs)
    QueueOptions options{2, 2, nullptr, 0, &budget};
    std::atomic<int> writing{0};
    QueueEvents events;
    events.writing = [&](std::size_t) { ++writing; };
    const auto results = runJobs(jobs, options, events);
    std::uint64_t largest = 0;
    for (const JobResult& r : results) {
        EXPECT_TRUE(r.ok) << r.error.describe();
        EXPECT_GT(r.memoryBytes, 16u << 20);
        largest = std::max(largest, r.memoryBytes);
    }
    EXPECT_EQ(writing.load(), 4);
    EXPECT_EQ(budget.peakHeld(), largest);
    EXPECT_EQ(budget.held(), 0u);
}

TEST(MemoryBudget, AShareWaitsUntilItFitsAndOneJobAlwaysRuns)
{
    MemoryBudget budget(100);
    EXPECT_TRUE(budget.acquire(500, nullptr)); // alone: admitted however large
    budget.release(500);
    ASSERT_TRUE(budget.acquire(60, nullptr));
    std::atomic<bool> second{false};
    std::thread t([&] {
        EXPECT_TRUE(budget.acquire(60, nullptr));
        second = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    EXPECT_FALSE(second.load());              // 60 + 60 > 100
    EXPECT_TRUE(budget.acquire(40, nullptr)); // 60 + 40 fits
    budget.release(40);
    budget.release(60);
    t.join();
    EXPECT_TRUE(second.load());
    EXPECT_EQ(budget.held(), 60u);
    EXPECT_EQ(budget.peakHeld(), 500u);
}

TEST(MemoryBudget, CancellationEndsTheWait)
{
    MemoryBudget budget(100);
    ASSERT_TRUE(budget.acquire(100, nullptr));
    core::CancelToken cancel;
    std::thread t([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        cancel.cancel();
    });
    EXPECT_FALSE(budget.acquire(1, &cancel));
    t.join();
    EXPECT_EQ(budget.held(), 100u);
}

TEST(ProgressMeter, FractionScalesTheSamplesAndNeverGoesBack)
{
    ProgressMeter meter(1000);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    JobProgress p = meter.update(1, 4);
    EXPECT_DOUBLE_EQ(p.fraction, 0.25);
    EXPECT_EQ(p.samplesDone, 250);
    EXPECT_EQ(p.samplesTotal, 1000);
    EXPECT_GT(p.samplesPerSecond, 0.0);
    EXPECT_NEAR(p.etaSeconds, 3 * p.seconds, 1e-9); // three times as long again at the same rate
    p = meter.update(1, 10);                        // another unit's report, lower: kept at a quarter
    EXPECT_DOUBLE_EQ(p.fraction, 0.25);
    EXPECT_EQ(meter.update(0, 0).fraction, 1.0); // nothing to do is done
    EXPECT_EQ(meter.finished().etaSeconds, 0.0);
    EXPECT_EQ(ProgressMeter(10).update(0, 5).etaSeconds, -1.0); // nothing done yet: unknown
}

} // namespace
} // namespace lv::convert
