// LRU list plus map under one mutex; single flight through a shared future per block being decoded.
#include "cache/BlockCache.h"

#include <algorithm>
#include <exception>
#include <future>

namespace lv::cache {

struct BlockCache::Entry {
    BlockData data;
    std::list<BlockKey>::iterator position;
};

struct BlockCache::InFlight {
    std::promise<core::Result<BlockData>> promise;
    std::shared_future<core::Result<BlockData>> result = promise.get_future().share();
};

BlockCache::BlockCache(std::size_t budgetBytes) : m_budget(budgetBytes) {}

BlockCache::~BlockCache() = default;

std::size_t BlockCache::entryBytes(std::size_t samples)
{
    return BlockMemory::footprint(samples * sizeof(std::int32_t)) + kEntryOverhead;
}

std::size_t BlockCache::bytesOf(const BlockData& data) { return entryBytes(data->capacity()); }

core::Result<BlockData> BlockCache::get(const BlockKey& key, const Decoder& decode, std::size_t expectedSamples)
{
    const std::size_t expected = expectedSamples ? entryBytes(expectedSamples) : 0;
    std::shared_ptr<InFlight> flight;
    {
        std::unique_lock lock(m_mutex);
        if (auto it = m_entries.find(key); it != m_entries.end()) {
            m_lru.splice(m_lru.begin(), m_lru, it->second.position);
            ++m_stats.hits;
            return it->second.data;
        }
        if (auto it = m_inFlight.find(key); it != m_inFlight.end()) {
            ++m_stats.sharedWaits;
            auto shared = it->second->result;
            lock.unlock();
            return shared.get();
        }
        flight = std::make_shared<InFlight>();
        m_inFlight.emplace(key, flight);
        ++m_stats.misses;
        m_stats.inFlight += expected; // room is made for the block before it is decoded
        evict();
    }
    core::Result<BlockSamples> decoded = core::makeError(core::ErrorCode::Io, "decoding failed");
    try {
        decoded = decode();
    } catch (const std::exception& e) { // waiters must never hang on a decode that threw
        decoded = core::makeError(core::ErrorCode::Io, std::string("decoding failed: ") + e.what());
    }
    core::Result<BlockData> result =
        decoded ? core::Result<BlockData>(std::make_shared<const BlockSamples>(std::move(*decoded)))
                : core::Result<BlockData>(decoded.error());
    {
        std::lock_guard lock(m_mutex);
        m_inFlight.erase(key);
        m_stats.inFlight -= expected;
        if (result) insert(key, *result);
    }
    flight->promise.set_value(result);
    return result;
}

std::vector<core::Result<BlockData>> BlockCache::getMany(std::span<const BlockKey> keys, const BatchDecoder& decode,
                                                         std::span<const std::size_t> expectedSamples)
{
    std::vector<core::Result<BlockData>> results(keys.size(), BlockData{});
    std::vector<std::size_t> mine;                  // keys this call decodes
    std::vector<std::shared_ptr<InFlight>> flights; // the in-flight entries of `mine`, in its order
    std::vector<std::pair<std::size_t, std::shared_future<core::Result<BlockData>>>> theirs; // another caller's
    std::size_t expected = 0;
    {
        std::lock_guard lock(m_mutex);
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (auto it = m_entries.find(keys[i]); it != m_entries.end()) {
                m_lru.splice(m_lru.begin(), m_lru, it->second.position);
                ++m_stats.hits;
                results[i] = it->second.data;
            } else if (auto f = m_inFlight.find(keys[i]); f != m_inFlight.end()) {
                ++m_stats.sharedWaits;
                theirs.emplace_back(i, f->second->result);
            } else {
                flights.push_back(std::make_shared<InFlight>());
                m_inFlight.emplace(keys[i], flights.back());
                mine.push_back(i);
                ++m_stats.misses;
                expected += expectedSamples[i] ? entryBytes(expectedSamples[i]) : 0;
            }
        }
        m_stats.inFlight += expected;
        if (!mine.empty()) evict();
    }
    std::vector<core::Result<BlockSamples>> decoded;
    if (!mine.empty()) {
        try {
            decoded = decode(mine);
        } catch (const std::exception& e) { // waiters must never hang on a decode that threw
            decoded.clear();
            decoded.resize(mine.size(),
                           core::makeError(core::ErrorCode::Io, std::string("decoding failed: ") + e.what()));
        }
        decoded.resize(mine.size(), core::makeError(core::ErrorCode::Io, "decoding failed"));
    }
    for (std::size_t k = 0; k < mine.size(); ++k)
        results[mine[k]] = decoded[k]
                               ? core::Result<BlockData>(std::make_shared<const BlockSamples>(std::move(*decoded[k])))
                               : core::Result<BlockData>(decoded[k].error());
    {
        std::lock_guard lock(m_mutex);
        for (std::size_t k = 0; k < mine.size(); ++k) {
            m_inFlight.erase(keys[mine[k]]);
            if (results[mine[k]]) insert(keys[mine[k]], *results[mine[k]]);
        }
        m_stats.inFlight -= expected;
    }
    for (std::size_t k = 0; k < mine.size(); ++k) flights[k]->promise.set_value(results[mine[k]]);
    for (auto& [i, shared] : theirs) results[i] = shared.get();
    return results;
}

BlockData BlockCache::peek(const BlockKey& key)
{
    std::lock_guard lock(m_mutex);
    auto it = m_entries.find(key);
    if (it == m_entries.end()) return nullptr;
    m_lru.splice(m_lru.begin(), m_lru, it->second.position);
    ++m_stats.hits;
    return it->second.data;
}

void BlockCache::insert(const BlockKey& key, BlockData data)
{
    if (m_entries.count(key)) return;
    m_lru.push_front(key);
    m_stats.bytes += bytesOf(data);
    m_entries.emplace(key, Entry{std::move(data), m_lru.begin()});
    evict();
}

bool BlockCache::pinned(const BlockKey& key) const
{
    auto it = m_pins.find(key.recording);
    if (it == m_pins.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&](const BlockRange& r) {
        return r.channel == key.channel && key.block >= r.firstBlock && key.block < r.endBlock;
    });
}

void BlockCache::evict()
{
    for (auto it = m_lru.end();
         m_stats.bytes + m_stats.reserved + m_stats.inFlight > m_budget && it != m_lru.begin();) {
        --it;
        if (pinned(*it)) continue;
        auto entry = m_entries.find(*it);
        m_stats.bytes -= bytesOf(entry->second.data);
        m_entries.erase(entry);
        it = m_lru.erase(it);
        ++m_stats.evictions;
    }
    m_stats.entries = m_entries.size();
}

void BlockCache::pin(std::uint64_t recording, std::vector<BlockRange> ranges)
{
    std::lock_guard lock(m_mutex);
    m_pins[recording] = std::move(ranges);
    evict();
}

void BlockCache::setBudget(std::size_t bytes)
{
    std::lock_guard lock(m_mutex);
    m_budget = bytes;
    evict();
}

std::size_t BlockCache::budget() const
{
    std::lock_guard lock(m_mutex);
    return m_budget;
}

bool BlockCache::reserve(std::uint64_t owner, std::size_t bytes, bool force)
{
    std::lock_guard lock(m_mutex);
    if (!force && m_stats.reserved + bytes > m_budget / 2) return false;
    m_reserved[owner] += bytes;
    m_stats.reserved += bytes;
    evict();
    return true;
}

void BlockCache::release(std::uint64_t owner)
{
    std::lock_guard lock(m_mutex);
    releaseLocked(owner);
}

void BlockCache::releaseLocked(std::uint64_t owner)
{
    if (auto it = m_reserved.find(owner); it != m_reserved.end()) {
        m_stats.reserved -= it->second;
        m_reserved.erase(it);
    }
}

void BlockCache::forget(std::uint64_t recording)
{
    std::lock_guard lock(m_mutex);
    m_pins.erase(recording);
    releaseLocked(recording);
    for (auto it = m_lru.begin(); it != m_lru.end();) {
        if (it->recording != recording) {
            ++it;
            continue;
        }
        auto entry = m_entries.find(*it);
        m_stats.bytes -= bytesOf(entry->second.data);
        m_entries.erase(entry);
        it = m_lru.erase(it);
    }
    m_stats.entries = m_entries.size();
}

CacheStats BlockCache::stats() const
{
    std::lock_guard lock(m_mutex);
    return m_stats;
}

} // namespace lv::cache
