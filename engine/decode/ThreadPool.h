// One persistent pool of decode threads; parallelFor splits a batch of jobs across it and the caller.
#pragma once

#include "core/TaskRunner.h"

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace lv::decode {

class ThreadPool final : public core::TaskRunner {
public:
    // threads: total threads that run jobs, the calling thread included; 0 means every core.
    explicit ThreadPool(std::size_t threads = 0);
    ~ThreadPool() override;
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // Runs job(i) for every i in [0, count); the caller works too. Rethrows the first exception of a job.
    void parallelFor(std::size_t count, const std::function<void(std::size_t)>& job) override;
    std::size_t threadCount() const override { return m_workers.size() + 1; }
    // Queued behind the batches before it; a pool without workers runs it here.
    void post(std::function<void()> task) override;

    static std::size_t defaultThreadCount();

private:
    struct Batch;
    void workerLoop();
    static void runItems(Batch& batch);

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::shared_ptr<Batch>> m_queue;
    std::vector<std::thread> m_workers;
    bool m_stopping = false;
};

} // namespace lv::decode
