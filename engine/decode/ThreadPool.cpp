// Batches of indexed jobs claimed through an atomic counter by the workers and the calling thread.
#include "decode/ThreadPool.h"

#include <atomic>
#include <exception>

namespace lv::decode {

struct ThreadPool::Batch {
    std::size_t count = 0;
    const std::function<void(std::size_t)>* job = nullptr;
    std::atomic<std::size_t> next{0};
    std::function<void(std::size_t)> owned; // a posted task's, which nobody waits for
    std::atomic<std::size_t> done{0};
    std::mutex mutex;
    std::condition_variable finished;
    std::exception_ptr error;
};

std::size_t ThreadPool::defaultThreadCount()
{
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : n;
}

ThreadPool::ThreadPool(std::size_t threads)
{
    if (threads == 0) threads = defaultThreadCount();
    for (std::size_t i = 1; i < threads; ++i) m_workers.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    for (std::thread& t : m_workers) t.join();
}

void ThreadPool::runItems(Batch& batch)
{
    std::size_t ran = 0;
    for (std::size_t i = batch.next.fetch_add(1); i < batch.count; i = batch.next.fetch_add(1)) {
        try {
            (*batch.job)(i);
        } catch (...) {
            std::lock_guard lock(batch.mutex);
            if (!batch.error) batch.error = std::current_exception();
        }
        ++ran;
    }
    if (ran != 0 && batch.done.fetch_add(ran) + ran == batch.count) {
        std::lock_guard lock(batch.mutex);
        batch.finished.notify_all();
    }
}

void ThreadPool::workerLoop()
{
    for (;;) {
        std::shared_ptr<Batch> batch;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
            if (m_stopping && m_queue.empty()) return;
            batch = m_queue.front();
            if (batch->next.load() >= batch->count) {
                m_queue.pop_front();
                continue;
            }
        }
        runItems(*batch);
    }
}

void ThreadPool::parallelFor(std::size_t count, const std::function<void(std::size_t)>& job)
{
    if (count == 0) return;
    auto batch = std::make_shared<Batch>();
    batch->count = count;
    batch->job = &job;
    if (!m_workers.empty() && count > 1) {
        {
            std::lock_guard lock(m_mutex);
            m_queue.push_back(batch);
        }
        m_wake.notify_all();
    }
    runItems(*batch);
    std::unique_lock lock(batch->mutex);
    batch->finished.wait(lock, [&] { return batch->done.load() == batch->count; });
    if (batch->error) std::rethrow_exception(batch->error);
}

void ThreadPool::post(std::function<void()> task)
{
    if (m_workers.empty()) {
        task();
        return;
    }
    auto batch = std::make_shared<Batch>();
    batch->count = 1;
    batch->owned = [task = std::move(task)](std::size_t) { task(); };
    batch->job = &batch->owned;
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(batch));
    }
    m_wake.notify_one();
}

} // namespace lv::decode
