// The blocks of one recording that failed their checks (CRC, header) when decoded for viewing: shown as damaged,
// not as data, with the reason for a status line. Thread-safe.
#pragma once

#include "core/Error.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace lv::cache {

class DamagedBlocks {
public:
    // Records block `block` of `channel` as damaged; true the first time.
    bool mark(std::size_t channel, std::size_t block, const core::Error& why);
    bool contains(std::size_t channel, std::size_t block) const;
    // The damaged blocks of `channel`, in block order.
    std::vector<std::size_t> blocksOf(std::size_t channel) const;
    std::size_t count() const { return m_count.load(std::memory_order_acquire); } // lock-free
    // The reasons (file, block, offset) recorded since the last call, once per block.
    std::vector<std::string> takeMessages();

private:
    mutable std::mutex m_mutex;
    std::set<std::pair<std::size_t, std::size_t>> m_blocks;
    std::vector<std::string> m_messages;
    std::atomic<std::size_t> m_count{0};
};

// Whether a failed decode means the block's bytes are damaged (rather than, e.g., a missing password).
bool isDamage(const core::Error& error);

} // namespace lv::cache
