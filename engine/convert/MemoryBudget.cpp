// The budget: a counter under a mutex; waiters wake when a job releases or every 100 ms to see cancellation.
#include "convert/MemoryBudget.h"

#include "io/MemoryPages.h"

#include <algorithm>
#include <chrono>

namespace lv::convert {

bool MemoryBudget::acquire(std::uint64_t bytes, const core::CancelToken* cancel)
{
    std::unique_lock lock(m_mutex);
    while (m_held > 0 && m_held + bytes > m_bytes) {
        if (cancel && cancel->cancelled()) return false;
        m_changed.wait_for(lock, std::chrono::milliseconds(100));
    }
    m_held += bytes;
    m_peak = std::max(m_peak, m_held);
    return true;
}

void MemoryBudget::release(std::uint64_t bytes)
{
    {
        std::lock_guard lock(m_mutex);
        m_held -= std::min(bytes, m_held);
    }
    m_changed.notify_all();
}

std::uint64_t MemoryBudget::held() const
{
    std::lock_guard lock(m_mutex);
    return m_held;
}

std::uint64_t MemoryBudget::peakHeld() const
{
    std::lock_guard lock(m_mutex);
    return m_peak;
}

std::uint64_t defaultMemoryBudget()
{
    const std::uint64_t physical = io::physicalMemoryBytes();
    return physical == 0 ? std::uint64_t{4} << 30 : physical / 2;
}

} // namespace lv::convert
