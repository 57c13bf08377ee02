// The default block visit (a binary search of the listed spans) and batch decode (one block after another).
#include "core/BlockSource.h"

#include <algorithm>

namespace lv::core {

bool BlockSource::visitBlocks(std::size_t channel, std::int64_t from, std::int64_t to,
                              const std::function<bool(std::size_t, const BlockSpan&)>& visit) const
{
    const std::span<const BlockSpan> all = blocks(channel);
    auto it = std::partition_point(all.begin(), all.end(), [&](const BlockSpan& b) {
        return b.first + static_cast<std::int64_t>(b.count) <= from;
    });
    for (; it != all.end() && it->first < to; ++it)
        if (!visit(static_cast<std::size_t>(it - all.begin()), *it)) break;
    return true;
}

void BlockSource::decodeBlocks(std::span<BlockDecode> blocks, const ReadControl& control) const
{
    for (BlockDecode& b : blocks) b.status = decodeBlock(b.channel, b.block, b.out, control);
}

} // namespace lv::core
