// Decoding for viewing: cache lookups, single-flight decodes, pyramid summaries, page assembly.
#include "cache/ViewContext.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace lv::cache {

namespace {

core::ReadControl checked(const core::ReadControl& control)
{
    core::ReadControl c = control;
    c.verifyCrc = true;
    c.skipDamagedBlocks = false;
    return c;
}

// A decode's outcome as the cache holds it: a damaged block marked and read as missing (not summarised: the
// pyramid holds data only), data summarised into the pyramid.
core::Result<BlockSamples> settle(const ViewContext& view, std::size_t channel, std::size_t block, BlockSamples out,
                                  const core::Status& status)
{
    if (!status.ok()) {
        if (!view.damaged || !isDamage(status.error())) return status.error();
        view.damaged->mark(channel, block, status.error());
        std::fill(out.begin(), out.end(), core::kNoSample);
        return out;
    }
    if (view.pyramid) view.pyramid->add(channel, block, out);
    return out;
}

core::Result<BlockSamples> decode(const ViewContext& view, std::size_t channel, std::size_t block,
                                  const core::ReadControl& control)
{
    BlockSamples out(view.source->blocks(channel)[block].count);
    const core::Status status = view.source->decodeBlock(channel, block, out, checked(control));
    return settle(view, channel, block, std::move(out), status);
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

void fetchBlocks(const ViewContext& view, std::span<BlockFetch> fetches, bool keepInCache,
                 const core::ReadControl& control)
{
    // The fetches at `which` decoded together and settled.
    auto decodeTogether = [&](std::span<const std::size_t> which) {
        std::vector<BlockSamples> samples(which.size());
        std::vector<core::BlockDecode> decodes;
        for (std::size_t k = 0; k < which.size(); ++k) {
            const BlockFetch& f = fetches[which[k]];
            samples[k].resize(view.source->blocks(f.channel)[f.block].count);
            decodes.push_back({f.channel, f.block, samples[k], {}});
        }
        view.source->decodeBlocks(decodes, checked(control));
        std::vector<core::Result<BlockSamples>> settled;
        for (std::size_t k = 0; k < which.size(); ++k)
            settled.push_back(
                settle(view, decodes[k].channel, decodes[k].block, std::move(samples[k]), decodes[k].status));
        return settled;
    };
    if (keepInCache) {
        std::vector<BlockKey> keys;
        std::vector<std::size_t> expected;
        for (const BlockFetch& f : fetches) {
            keys.push_back(keyOf(view, f.channel, f.block));
            expected.push_back(view.source->blocks(f.channel)[f.block].count);
        }
        std::vector<core::Result<BlockData>> got = view.cache->getMany(keys, decodeTogether, expected);
        for (std::size_t i = 0; i < fetches.size(); ++i) fetches[i].result = std::move(got[i]);
        return;
    }
    std::vector<std::size_t> missing;
    for (std::size_t i = 0; i < fetches.size(); ++i) {
        if (BlockData cached = view.cache->peek(keyOf(view, fetches[i].channel, fetches[i].block)))
            fetches[i].result = std::move(cached);
        else
            missing.push_back(i);
    }
    std::vector<core::Result<BlockSamples>> decoded = decodeTogether(missing);
    for (std::size_t k = 0; k < missing.size(); ++k)
        fetches[missing[k]].result =
            decoded[k] ? core::Result<BlockData>(std::make_shared<const BlockSamples>(std::move(*decoded[k])))
                       : core::Result<BlockData>(decoded[k].error());
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
