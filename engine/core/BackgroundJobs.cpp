// A batch of jobs claimed one at a time under a mutex by posted helpers and, when it finishes, by the caller.
#include "core/BackgroundJobs.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <utility>

namespace lv::core {

struct BackgroundJobs::State {
    std::function<void(std::size_t)> job;
    std::size_t count = 0;
    std::mutex mutex;
    std::condition_variable idle;
    std::size_t next = 0;    // the next job to claim; count when none is left (or the rest was dropped)
    std::size_t running = 0; // claimed, not done
    std::exception_ptr error;

    bool claim(std::size_t& i)
    {
        std::lock_guard lock(mutex);
        if (next >= count) return false;
        i = next++;
        ++running;
        return true;
    }

    void run(std::size_t i)
    {
        std::exception_ptr thrown;
        try {
            job(i);
        } catch (...) {
            thrown = std::current_exception();
        }
        std::lock_guard lock(mutex);
        if (thrown && !error) error = thrown;
        if (--running == 0) idle.notify_all();
    }

    void runAll()
    {
        for (std::size_t i = 0; claim(i);) run(i);
    }

    void waitIdle()
    {
        std::unique_lock lock(mutex);
        idle.wait(lock, [this] { return running == 0; });
    }
};

BackgroundJobs::~BackgroundJobs()
{
    if (!m_state) return;
    {
        std::lock_guard lock(m_state->mutex);
        m_state->next = m_state->count;
    }
    m_state->waitIdle();
}

void BackgroundJobs::start(TaskRunner* runner, std::size_t count, std::function<void(std::size_t)> job)
{
    finish();
    m_state = std::make_shared<State>();
    m_state->job = std::move(job);
    m_state->count = count;
    const std::size_t helpers = runner ? std::min(std::max<std::size_t>(runner->threadCount(), 1) - 1, count) : 0;
    for (std::size_t h = 0; h < helpers; ++h) runner->post([state = m_state] { state->runAll(); });
}

bool BackgroundJobs::runOneHere()
{
    std::size_t i = 0;
    if (!m_state || !m_state->claim(i)) return false;
    m_state->run(i);
    return true;
}

bool BackgroundJobs::done() const
{
    if (!m_state) return true;
    std::lock_guard lock(m_state->mutex);
    return m_state->next >= m_state->count && m_state->running == 0;
}

void BackgroundJobs::finish()
{
    if (!m_state) return;
    const std::shared_ptr<State> state = std::exchange(m_state, nullptr);
    state->runAll();
    state->waitIdle();
    std::exception_ptr error; // taken out: a helper may drop the state last, and must not free what we rethrow
    {
        std::lock_guard lock(state->mutex);
        error = std::exchange(state->error, nullptr);
    }
    if (error) std::rethrow_exception(error);
}

} // namespace lv::core
