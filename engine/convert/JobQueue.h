// Runs conversion jobs side by side: at most `jobs` at once, the decode threads shared out among them, within one
// memory budget; a failing job records its error and the queue goes on; cancellation stops the running jobs and
// starts no more; a job can be cancelled alone.
#pragma once

#include "convert/ConvertJob.h"

#include <functional>
#include <vector>

namespace lv::convert {

struct QueueOptions {
    std::size_t jobs = 1;    // side by side
    std::size_t threads = 0; // decode/encode threads in all (0: all cores), each job gets threads / jobs (>= 1)
    const core::CancelToken* cancel = nullptr;
    std::uint64_t memoryBytes = 0;  // what the running jobs may hold together (0: defaultMemoryBudget())
    MemoryBudget* memory = nullptr; // a budget shared with other queues (then memoryBytes is not used)
    // One token per job (jobs.size() of them), or nullptr: job i then runs with its own token instead of `cancel`
    // (one job cancelled alone ends Cancelled, leaving nothing, and the queue goes on); `cancel` still keeps
    // jobs from starting, so stopping them all means setting `cancel` and every job's token.
    const std::vector<core::CancelToken>* jobCancel = nullptr;
};

// Called when job `index` starts and when it ends, one call at a time; writing and progress from any thread.
struct QueueEvents {
    std::function<void(std::size_t index)> started;
    std::function<void(std::size_t index)> writing; // its share of the memory budget taken (any thread)
    std::function<void(std::size_t index, const JobResult& result)> finished;
    std::function<void(std::size_t index, const JobProgress& progress)> progress;
};

// Every job's result, in the jobs' order. Jobs not started because of cancellation fail with Cancelled.
std::vector<JobResult> runJobs(const std::vector<ConvertJob>& jobs, const QueueOptions& options,
                               const QueueEvents& events = {});

} // namespace lv::convert
