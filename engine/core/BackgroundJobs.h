// Jobs that run on a runner's other threads while the caller goes on, until the caller needs their results.
#pragma once

#include "core/TaskRunner.h"

#include <cstddef>
#include <functional>
#include <memory>

namespace lv::core {

// One batch at a time: start() hands job(i), i in [0, count), to the runner's threads other than the caller's and
// returns at once; finish() runs on the caller the jobs no helper has started and waits for those that have. A
// producer that starts a batch, makes the next one meanwhile and then finishes the first keeps every thread busy
// without waiting for the slowest job before it goes on. Jobs may touch what the caller keeps until finish() or the
// destructor returns.
class BackgroundJobs {
    struct State;

public:
    BackgroundJobs() = default;
    // Drops the jobs not started and waits for those running.
    ~BackgroundJobs();
    BackgroundJobs(const BackgroundJobs&) = delete;
    BackgroundJobs& operator=(const BackgroundJobs&) = delete;

    // Finishes the batch before, if any (rethrowing its exception), then starts this one on at most
    // runner->threadCount() - 1 helpers (none without a runner: everything runs in finish()).
    void start(TaskRunner* runner, std::size_t count, std::function<void(std::size_t)> job);
    // Runs here the jobs not started, waits for the others; rethrows the first exception a job threw. Does nothing
    // when no batch is started.
    void finish();
    // Runs here one job no helper has started; false when none is left to start (or no batch is started).
    bool runOneHere();
    // True when every job of the batch has run (or no batch is started): finish() will not wait.
    bool done() const;
    bool started() const { return m_state != nullptr; }

private:
    std::shared_ptr<State> m_state;
};

} // namespace lv::core
