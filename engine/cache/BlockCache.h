// A byte-budgeted LRU cache of decoded blocks shared by every reader of a process. Concurrent requests for one
// block share a single decode; blocks in a pinned range are never evicted.
#pragma once

#include "cache/BlockMemory.h"
#include "core/Error.h"

#include <compare>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace lv::cache {

using BlockData = std::shared_ptr<const BlockSamples>;

struct BlockKey {
    std::uint64_t recording = 0; // an id the caller gives each open recording
    std::uint32_t channel = 0;
    std::uint64_t block = 0;
    auto operator<=>(const BlockKey&) const = default; // NOLINT(modernize-use-nullptr): clang-tidy 14 misreads it
};

// Blocks [firstBlock, endBlock) of one channel.
struct BlockRange {
    std::uint32_t channel = 0;
    std::uint64_t firstBlock = 0;
    std::uint64_t endBlock = 0;
};

struct CacheStats {
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;      // decodes started
    std::uint64_t sharedWaits = 0; // requests that waited for another caller's decode of the same block
    std::uint64_t evictions = 0;
    std::size_t bytes = 0;    // decoded blocks held, bookkeeping included
    std::size_t reserved = 0; // memory held outside the cache but counted in its budget (pyramids)
    std::size_t inFlight = 0; // blocks being decoded (when their size was given)
    std::size_t entries = 0;
};

class BlockCache {
public:
    static constexpr std::size_t kEntryOverhead = 256;  // per block: control block, map and list nodes
    static std::size_t entryBytes(std::size_t samples); // what a block of `samples` counts: pages + overhead
    using Decoder = std::function<core::Result<BlockSamples>()>;

    explicit BlockCache(std::size_t budgetBytes);
    ~BlockCache();

    // The block, from the cache or decoded now by `decode` (run on the calling thread, outside the lock).
    // A failed decode is returned to every caller waiting for it and is not cached. `expectedSamples`, when
    // known, counts the block in the budget while it is decoded.
    core::Result<BlockData> get(const BlockKey& key, const Decoder& decode, std::size_t expectedSamples = 0);
    // Decodes the blocks at the given indices of a getMany call's keys; one result per index, in their order.
    using BatchDecoder = std::function<std::vector<core::Result<BlockSamples>>(std::span<const std::size_t>)>;
    // get() for each key, the blocks neither cached nor being decoded by another caller decoded by one call of
    // `decode` (single flight as in get(); another caller's decodes are waited for only once ours are entered).
    // expectedSamples[i] as get()'s, for keys[i].
    std::vector<core::Result<BlockData>> getMany(std::span<const BlockKey> keys, const BatchDecoder& decode,
                                                 std::span<const std::size_t> expectedSamples);
    // The block if it is cached (counts as a use), else nullptr.
    BlockData peek(const BlockKey& key);

    // Replaces the pinned ranges of `recording`: those blocks stay cached, even over budget.
    void pin(std::uint64_t recording, std::vector<BlockRange> ranges);
    void setBudget(std::size_t bytes);
    std::size_t budget() const;
    // Counts `bytes` more that `owner` (a recording's pyramid) holds outside the cache against the budget; blocks
    // are evicted to make room. Refused (false) when all owners' reservations would pass half the budget, unless
    // `force` (small fixed structures).
    bool reserve(std::uint64_t owner, std::size_t bytes, bool force = false);
    void release(std::uint64_t owner);    // drops all of owner's reservation
    void forget(std::uint64_t recording); // a closed recording: its blocks, pins and reservation go
    CacheStats stats() const;

private:
    struct Entry;
    struct InFlight;
    bool pinned(const BlockKey& key) const;
    void insert(const BlockKey& key, BlockData data);
    void evict();
    void releaseLocked(std::uint64_t owner);
    static std::size_t bytesOf(const BlockData& data);

    mutable std::mutex m_mutex;
    std::size_t m_budget;
    std::map<BlockKey, Entry> m_entries;
    std::list<BlockKey> m_lru; // most recent first
    std::map<BlockKey, std::shared_ptr<InFlight>> m_inFlight;
    std::map<std::uint64_t, std::vector<BlockRange>> m_pins;
    std::map<std::uint64_t, std::size_t> m_reserved;
    CacheStats m_stats;
};

} // namespace lv::cache
