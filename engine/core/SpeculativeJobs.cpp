// Per job an atomic state (free, running, committing, done, sealed); only the caller runs a job a second time.
#include "core/SpeculativeJobs.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

namespace lv::core {

namespace {
enum JobState : std::uint8_t { Free, Running, Committing, Done, Sealed };
} // namespace

struct SpeculativeBatch {
    SpeculativeBatch(std::size_t n, SpeculativeJob j) : count(n), job(std::move(j)), state(n) {}

    std::size_t count;
    SpeculativeJob job;
    std::vector<std::atomic<std::uint8_t>> state;
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> finished{0}; // done or sealed
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::condition_variable allFinished;
    std::exception_ptr error;

    void finishOne()
    {
        if (finished.fetch_add(1) + 1 != count) return;
        {
            std::lock_guard lock(mutex);
        }
        allFinished.notify_all();
    }

    void runOne(std::size_t j)
    {
        JobCommit commit(*this, j);
        try {
            job(j, commit);
        } catch (...) {
            if (commit.claimed() || commit.claim()) {
                std::lock_guard lock(mutex);
                if (!error) error = std::current_exception();
            }
        }
        if (!commit.claimed()) return;
        state[j].store(Done);
        finishOne();
    }

    // Takes job j from free to running; false when another thread took it or it was sealed.
    bool take(std::size_t j)
    {
        std::uint8_t expected = Free;
        return state[j].compare_exchange_strong(expected, Running);
    }

    bool cancelled(const CancelToken* cancel)
    {
        if (!cancel || !cancel->cancelled()) return false;
        seal();
        return true;
    }

    void seal()
    {
        stop.store(true);
        for (std::size_t j = 0; j < count; ++j)
            for (std::uint8_t s = state[j].load(); s == Free || s == Running;)
                if (state[j].compare_exchange_weak(s, Sealed)) {
                    finishOne();
                    break;
                }
    }

    // Jobs as they come, until none is left.
    void takeJobs(const CancelToken* cancel)
    {
        for (std::size_t j = next.fetch_add(1); j < count; j = next.fetch_add(1)) {
            if (stop.load() || cancelled(cancel)) return;
            if (take(j)) runOne(j);
        }
    }

    // The caller's: then each job another thread holds (or took a number for) runs here once more. A helper does
    // not do this: a run of the caller's job elsewhere would not bring the caller back to its core any sooner.
    void finishOthers(const CancelToken* cancel)
    {
        for (std::size_t j = 0; j < count; ++j) {
            if (cancelled(cancel)) return;
            if (take(j) || state[j].load() == Running) runOne(j);
        }
    }
};

bool JobCommit::claim()
{
    if (m_claimed) return true;
    std::uint8_t expected = Running;
    m_claimed = m_batch.state[m_job].compare_exchange_strong(expected, Committing);
    return m_claimed;
}

bool runSpeculative(TaskRunner* runner, const WorkGate& gate, std::size_t count, SpeculativeJob job,
                    const CancelToken* cancel)
{
    auto batch = std::make_shared<SpeculativeBatch>(count, std::move(job));
    const std::size_t threads = runner && count > 1 ? std::min(runner->threadCount(), count) : 1;
    for (std::size_t h = 1; h < threads; ++h)
        runner->post([batch, door = gate.door()] {
            if (batch->stop.load()) return;
            const WorkGate::Pass pass = door.enter();
            if (pass) batch->takeJobs(nullptr);
        });
    batch->takeJobs(cancel);
    batch->finishOthers(cancel);
    {
        std::unique_lock lock(batch->mutex);
        batch->allFinished.wait(lock, [&] { return batch->finished.load() == count; });
    }
    batch->stop.store(true);
    if (batch->error) std::rethrow_exception(batch->error);
    for (std::size_t j = 0; j < count; ++j)
        if (batch->state[j].load() != Done) return false;
    return true;
}

} // namespace lv::core
