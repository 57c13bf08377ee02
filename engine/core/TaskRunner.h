// Abstract parallel executor and cancellation, so formats can split work without knowing the pool.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

namespace lv::core {

// Shared cancellation flag; set from any thread, polled by workers between jobs.
class CancelToken {
public:
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> m_cancelled{false};
};

class TaskRunner {
public:
    virtual ~TaskRunner() = default;
    // Runs job(i) for i in [0, count) and returns when all have run. Jobs may run on any thread.
    virtual void parallelFor(std::size_t count, const std::function<void(std::size_t)>& job) = 0;
    virtual std::size_t threadCount() const = 0;
    // Runs task on one of the runner's threads without waiting for it (here, by default). The task owns what it
    // needs: nobody waits for it. By value: a runner that queues it keeps it.
    virtual void post(std::function<void()> task) // NOLINT(performance-unnecessary-value-param)
    {
        task();
    }
};

// Runs every job inline on the calling thread.
class InlineRunner final : public TaskRunner {
public:
    void parallelFor(std::size_t count, const std::function<void(std::size_t)>& job) override
    {
        for (std::size_t i = 0; i < count; ++i) job(i);
    }
    std::size_t threadCount() const override { return 1; }
};

// job(i) for i in [0, count): on `runner` when there is one and more than one job, else inline.
inline void runEach(TaskRunner* runner, std::size_t count, const std::function<void(std::size_t)>& job)
{
    if (runner && count > 1)
        runner->parallelFor(count, job);
    else
        for (std::size_t i = 0; i < count; ++i) job(i);
}

} // namespace lv::core
