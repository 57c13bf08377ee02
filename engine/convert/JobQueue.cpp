// Worker threads claiming jobs in order, each with its own decode pool, all sharing one memory budget.
#include "convert/JobQueue.h"

#include "decode/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace lv::convert {

std::vector<JobResult> runJobs(const std::vector<ConvertJob>& jobs, const QueueOptions& options,
                               const QueueEvents& events)
{
    std::vector<JobResult> results(jobs.size());
    const std::size_t side = std::clamp<std::size_t>(options.jobs, 1, std::max<std::size_t>(1, jobs.size()));
    const std::size_t all = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    const std::size_t each = std::max<std::size_t>(1, all / side);
    MemoryBudget own(options.memoryBytes ? options.memoryBytes : defaultMemoryBudget());
    MemoryBudget& budget = options.memory ? *options.memory : own;
    std::atomic<std::size_t> next{0};
    std::mutex eventMutex;
    const auto worker = [&] {
        decode::ThreadPool pool(each);
        for (std::size_t i = next++; i < jobs.size(); i = next++) {
            const core::CancelToken* token = options.jobCancel ? &(*options.jobCancel)[i] : options.cancel;
            if ((options.cancel && options.cancel->cancelled()) || (token && token->cancelled())) {
                results[i].error = core::makeError(core::ErrorCode::Cancelled, "cancelled before it started");
                continue;
            }
            if (events.started) {
                std::lock_guard lock(eventMutex);
                events.started(i);
            }
            JobEvents jobEvents;
            if (events.writing) jobEvents.writing = [&, i] { events.writing(i); };
            if (events.progress) jobEvents.progress = [&, i](const JobProgress& p) { events.progress(i, p); };
            results[i] = runConvertJob(jobs[i], {&pool, token, &budget}, jobEvents);
            if (events.finished) {
                std::lock_guard lock(eventMutex);
                events.finished(i, results[i]);
            }
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t w = 1; w < side; ++w) threads.emplace_back(worker);
    worker();
    for (std::thread& t : threads) t.join();
    return results;
}

} // namespace lv::convert
