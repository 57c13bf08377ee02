// Recordings stored in independently decodable blocks (MEF RED blocks) show them, so that caches and
// envelopes can work block by block and take each block's stored extrema without decoding.
#pragma once

#include "core/Error.h"
#include "core/Recording.h"

#include <cstdint>
#include <functional>
#include <span>

namespace lv::core {

// One stored block of a channel: grid samples [first, first + count), all present except RED NaN values.
struct BlockSpan {
    std::int64_t first = 0;
    std::uint32_t count = 0;
    std::int32_t minimum = 0; // stored counts, NaN samples not counted; valid when hasExtrema
    std::int32_t maximum = 0;
    bool hasExtrema = false;
};

// One block of a batch (BlockSource::decodeBlocks): its samples go to out[0, count); `status` says how it went.
struct BlockDecode {
    std::size_t channel = 0;
    std::size_t block = 0;
    std::span<std::int32_t> out;
    Status status;
};

class BlockSource {
public:
    virtual ~BlockSource() = default;
    // The blocks of `channel`, sorted by `first`, never overlapping.
    virtual std::span<const BlockSpan> blocks(std::size_t channel) const = 0;
    // Whether blocks carry stored extrema (hasExtrema); false: asking for the blocks buys nothing but the list.
    virtual bool storesExtrema() const { return true; }
    // Calls visit(index, span) for the blocks of `channel` that overlap grid samples [from, to), in order, until
    // it returns false; false when the channel's blocks cannot be had. A source that keeps its blocks in its own
    // form lists no spans for it (blocks() may build them, once).
    virtual bool visitBlocks(std::size_t channel, std::int64_t from, std::int64_t to,
                             const std::function<bool(std::size_t, const BlockSpan&)>& visit) const;
    // Decodes one block into out[0, count) (kNoSample for NaN samples). Safe to call from several threads.
    virtual Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                               const ReadControl& control) const = 0;
    // Decodes each block as decodeBlock would (the same samples, the same error in its status); a source may
    // decode them side by side (MEF: blocks of any channels on the RED decoder's lanes). The default decodes
    // them one by one. Safe to call from several threads.
    virtual void decodeBlocks(std::span<BlockDecode> blocks, const ReadControl& control) const;
    // How many blocks decodeBlocks likes at once (a viewer's scheduler hands a worker that many); 1: it gains
    // nothing over decodeBlock.
    virtual std::size_t preferredBatch() const { return 1; }
};

} // namespace lv::core
