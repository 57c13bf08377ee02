// Decoding for viewing: cache lookups, single-flight decodes, pyramid summaries, page assembly.
#include "cache/ViewContext.h"

#include <algorithm>

namespace lv::cache {

namespace {

core::Result<BlockSamples> decode(const ViewContext& view, std::size_t channel, std::size_t block,
                                  const core::ReadControl& control)
{
    const core::BlockSpan span = view.source->blocks(channel)[block];
    BlockSamples out(span.count);
    core::ReadControl checked = control;
    checked.verifyCrc = true;
    checked.skipDamagedBlocks = false;
    if (core::Status status = view.source->decodeBlock(channel, block, out, checked); !status.ok()) {
        if (!view.damaged || !isDamage(status.error())) return status.error();
        view.damaged->mark(channel, block, status.error());
        std::fill(out.begin(), out.end(), core::kNoSample);
        return out; // not summarised: the pyramid holds data only
    }
    if (view.pyramid) view.pyramid->add(channel, block, out);
    return out;
}

BlockKey keyOf(const ViewContext& view, std::size_t channel, std::size_t block)
{
    return {view.recording, static_cast<std::uint32_t>(channel), block};
}

} // namespace

core::Result<BlockData> fetchBlock(const ViewContext& view, std::size_t channel, std::size_t block,
                                   const core::ReadControl& control)
{
    return view.cache->get(
        keyOf(view, channel, block), [&] { return decode(view, channel, block, control); },
        view.source->blocks(channel)[block].count);
}

core::Result<BlockData> fetchBlockUncached(const ViewContext& view, std::size_t channel, std::size_t block,
                                           const core::ReadControl& control)
{
    if (BlockData cached = view.cache->peek(keyOf(view, channel, block))) return cached;
    auto decoded = decode(view, channel, block, control);
    if (!decoded) return decoded.error();
    return std::make_shared<const BlockSamples>(std::move(*decoded));
}

BlockIndexRange blocksCovering(const core::BlockSource& source, std::size_t channel, std::int64_t from, std::int64_t to)
{
    const auto blocks = source.blocks(channel);
    const auto endsAfter = [](std::int64_t v, const core::BlockSpan& b) { return v < b.first + b.count; };
    const auto startsAt = [](const core::BlockSpan& b, std::int64_t v) { return b.first < v; };
    const auto first = std::upper_bound(blocks.begin(), blocks.end(), from, endsAfter);
    const auto end = std::lower_bound(first, blocks.end(), to, startsAt);
    return {static_cast<std::size_t>(first - blocks.begin()), static_cast<std::size_t>(end - blocks.begin())};
}

core::Status readThroughCache(const ViewContext& view, std::size_t channel, std::int64_t first,
                              std::span<std::int32_t> out, const core::ReadControl& control)
{
    std::fill(out.begin(), out.end(), core::kNoSample);
    const std::int64_t end = first + static_cast<std::int64_t>(out.size());
    const auto blocks = view.source->blocks(channel);
    const BlockIndexRange range = blocksCovering(*view.source, channel, first, end);
    for (std::size_t j = range.first; j < range.end; ++j) {
        if (control.cancel && control.cancel->cancelled())
            return core::makeError(core::ErrorCode::Cancelled, "cancelled");
        auto data = fetchBlock(view, channel, j, control);
        if (!data) return data.error();
        const core::BlockSpan& s = blocks[j];
        const std::int64_t from = std::max(first, s.first), to = std::min(end, s.first + s.count);
        std::copy((*data)->begin() + (from - s.first), (*data)->begin() + (to - s.first), out.begin() + (from - first));
    }
    return {};
}

} // namespace lv::cache
