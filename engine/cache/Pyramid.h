// Finer min/max levels than the stored block extrema: per block, the extrema of each run of `binSamples`
// samples and whether a NaN (missing) sample lies in it; filled from blocks as they are decoded, saved to and
// loaded from a file next to the session's snapshot.
#pragma once

#include "cache/BlockCache.h"
#include "core/BlockSource.h"
#include "core/ByteFields.h"
#include "core/Error.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lv::cache {

class ZstdFileReader;

// One decoded block summarised: bin k covers the block's samples [k * binSamples, (k + 1) * binSamples).
struct BlockSummary {
    std::vector<std::int32_t> minimum; // per bin, stored counts; INT32_MAX / INT32_MIN for a bin of only NaN
    std::vector<std::int32_t> maximum;
    std::vector<std::uint8_t> hasNaN; // per bin: 1 when a sample of the bin is missing
    bool anyNaN = false;
};

// A built block's bins, as views into the pyramid's arrays (valid while the pyramid lives).
struct BlockBins {
    std::span<const std::int32_t> minimum;
    std::span<const std::int32_t> maximum;
    std::span<const std::uint8_t> hasNaN;
    bool anyNaN = false;
};

class Pyramid {
public:
    static constexpr std::uint32_t kDefaultBin = 256;

    // One pyramid per open recording; its block lists fix the shape (read once per channel, when first used).
    Pyramid(const core::BlockSource& source, std::size_t channels, std::uint32_t binSamples = kDefaultBin);
    ~Pyramid();

    std::uint32_t binSamples() const { return m_bin; }
    // Summarises decoded block `block` of `channel` (its count samples, kNoSample where missing). Thread-safe.
    void add(std::size_t channel, std::size_t block, std::span<const std::int32_t> samples);
    // The block's bins when it has been summarised, else nullopt. Thread-safe.
    std::optional<BlockBins> find(std::size_t channel, std::size_t block) const;
    std::size_t builtBlocks() const;
    std::size_t bytes() const; // memory held: per-block index arrays and the bin chunks allocated so far

    // Counts the pyramid's memory in `cache`'s budget as `owner`'s reservation (from now on; call before use):
    // blocks are evicted to make room, and a summary the cache refuses room for (pyramids past half the budget)
    // is not kept.
    void chargeTo(BlockCache& cache, std::uint64_t owner);

    // The file keeps, per channel, a hash of its block list: a channel whose blocks changed is dropped on load.
    // Written streamed (a channel at a time) to a temporary file renamed over `file`.
    core::Status save(const std::string& file) const;
    // Merges the file's summaries of unchanged channels; the file is streamed (checked whole first, then read
    // again into the pyramid), never held in memory.
    core::Status load(const std::string& file);

private:
    struct Channel;
    Channel& channel(std::size_t c) const;                             // m_mutex held
    void store(Channel& ch, std::size_t block, const BlockSummary& s); // m_mutex held
    bool charge(std::size_t bytes, bool force) const;                  // m_mutex held
    std::uint64_t shapeHash(std::size_t c) const;
    bool readFrame(ZstdFileReader& in, bool keep);
    void writeChannel(core::ByteWriter& w, std::size_t c) const; // m_mutex held

    const core::BlockSource& m_source;
    std::uint32_t m_bin;
    mutable std::mutex m_mutex;
    mutable std::vector<std::unique_ptr<Channel>> m_channels;
    mutable std::size_t m_bytes = 0;
    BlockCache* m_cache = nullptr;
    std::uint64_t m_owner = 0;
};

// Summarises one block's samples in bins of `binSamples`.
BlockSummary summarize(std::span<const std::int32_t> samples, std::uint32_t binSamples);

} // namespace lv::cache
