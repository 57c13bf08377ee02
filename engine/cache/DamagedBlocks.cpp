// Damaged blocks seen while viewing, kept per recording.
#include "cache/DamagedBlocks.h"

namespace lv::cache {

bool DamagedBlocks::mark(std::size_t channel, std::size_t block, const core::Error& why)
{
    std::lock_guard lock(m_mutex);
    if (!m_blocks.emplace(channel, block).second) return false;
    m_count.store(m_blocks.size(), std::memory_order_release);
    m_messages.push_back(why.describe() + "; shown as damaged");
    return true;
}

bool DamagedBlocks::contains(std::size_t channel, std::size_t block) const
{
    if (count() == 0) return false;
    std::lock_guard lock(m_mutex);
    return m_blocks.count({channel, block}) != 0;
}

std::vector<std::size_t> DamagedBlocks::blocksOf(std::size_t channel) const
{
    std::vector<std::size_t> blocks;
    if (count() == 0) return blocks;
    std::lock_guard lock(m_mutex);
    for (auto it = m_blocks.lower_bound({channel, 0}); it != m_blocks.end() && it->first == channel; ++it)
        blocks.push_back(it->second);
    return blocks;
}

std::vector<std::string> DamagedBlocks::takeMessages()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_messages, {});
}

bool isDamage(const core::Error& error)
{
    return error.code == core::ErrorCode::CrcMismatch || error.code == core::ErrorCode::Corrupt ||
           error.code == core::ErrorCode::Truncated;
}

} // namespace lv::cache
