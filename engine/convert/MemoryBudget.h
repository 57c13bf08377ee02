// Bytes that running jobs may hold at once: a job takes its share before it writes and gives it back when done;
// a job that does not fit waits for others to finish, and one job always runs.
#pragma once

#include "core/TaskRunner.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace lv::convert {

class MemoryBudget {
public:
    explicit MemoryBudget(std::uint64_t bytes) : m_bytes(bytes) {}

    // Waits until `bytes` fit beside what the running jobs hold (at once when nothing is held); false when
    // `cancel` is set while waiting (nothing taken then).
    bool acquire(std::uint64_t bytes, const core::CancelToken* cancel);
    void release(std::uint64_t bytes);

    std::uint64_t bytes() const { return m_bytes; }
    std::uint64_t held() const;
    std::uint64_t peakHeld() const;

private:
    const std::uint64_t m_bytes;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::uint64_t m_held = 0;
    std::uint64_t m_peak = 0;
};

// Half the machine's physical memory (the queue's default budget).
std::uint64_t defaultMemoryBudget();

} // namespace lv::convert
