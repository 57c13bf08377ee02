// A test runner that posts each task on a thread of its own (joined when it goes); parallelFor runs inline.
#pragma once

#include "core/TaskRunner.h"

#include <thread>
#include <utility>
#include <vector>

namespace lv::core {

class ThreadRunner final : public TaskRunner {
public:
    explicit ThreadRunner(std::size_t threads) : m_threads(threads) {}
    ~ThreadRunner() override
    {
        for (std::thread& t : m_posted) t.join();
    }
    ThreadRunner(const ThreadRunner&) = delete;
    ThreadRunner& operator=(const ThreadRunner&) = delete;
    void parallelFor(std::size_t count, const std::function<void(std::size_t)>& job) override
    {
        for (std::size_t i = 0; i < count; ++i) job(i);
    }
    std::size_t threadCount() const override { return m_threads; }
    std::size_t posted() const { return m_posted.size(); }
    void post(std::function<void()> task) override { m_posted.emplace_back(std::move(task)); }

private:
    std::size_t m_threads;
    std::vector<std::thread> m_posted;
};

} // namespace lv::core
