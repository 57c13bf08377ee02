// Block summaries in chunks of bins under one mutex, charged to the cache budget; saved as "LVPYR001" + zstd.
#include "cache/Pyramid.h"

#include "cache/ZstdFileReader.h"
#include "cache/ZstdFileWriter.h"
#include "core/ByteFields.h"
#include "io/ByteSource.h"

#include <algorithm>
#include <cstring>

namespace lv::cache {

using core::ErrorCode;
using core::makeError;

namespace {

constexpr char kMagic[8] = {'L', 'V', 'P', 'Y', 'R', '0', '0', '1'};

} // namespace

// Bins of every block, in chunks of kChunkBlocks consecutive blocks allocated when the first of them is
// summarised (so memory follows what is built, and is counted as it is allocated). Block b's bins are bins
// [firstBin[b] - firstBin[chunk start], ...) of its chunk: minima, then maxima, then one NaN byte per bin.
struct Pyramid::Channel {
    static constexpr std::size_t kChunkBlocks = 32;
    std::vector<std::uint64_t> firstBin; // per block, plus the total at the end
    std::vector<std::uint8_t> state;     // per block: 0 not built, 1 built, 3 built with a NaN sample
    std::vector<std::unique_ptr<std::int32_t[]>> chunks;
    std::size_t built = 0;

    std::size_t chunkFirstBlock(std::size_t block) const { return block / kChunkBlocks * kChunkBlocks; }
    std::size_t chunkBins(std::size_t block) const
    {
        const std::size_t a = chunkFirstBlock(block), b = std::min(a + kChunkBlocks, state.size());
        return firstBin[b] - firstBin[a];
    }
    static std::size_t chunkBytes(std::size_t bins) { return (2 * bins + (bins + 3) / 4) * sizeof(std::int32_t); }
    BlockBins bins(std::size_t block) const
    {
        const std::size_t n = chunkBins(block), at = firstBin[block] - firstBin[chunkFirstBlock(block)];
        const std::size_t count = firstBin[block + 1] - firstBin[block];
        const std::int32_t* c = chunks[block / kChunkBlocks].get();
        const auto* nan = reinterpret_cast<const std::uint8_t*>(c + 2 * n);
        return {{c + at, count}, {c + n + at, count}, {nan + at, count}, state[block] == 3};
    }
};

BlockSummary summarize(std::span<const std::int32_t> samples, std::uint32_t bin)
{
    BlockSummary s;
    const std::size_t bins = (samples.size() + bin - 1) / bin;
    s.minimum.assign(bins, INT32_MAX);
    s.maximum.assign(bins, INT32_MIN);
    s.hasNaN.assign(bins, 0);
    for (std::size_t k = 0; k < bins; ++k) {
        const std::size_t end = std::min(samples.size(), (k + 1) * bin);
        std::int32_t lo = INT32_MAX, hi = INT32_MIN;
        bool nan = false;
        for (std::size_t i = k * bin; i < end; ++i) {
            const std::int32_t v = samples[i];
            nan |= v == core::kNoSample;
            lo = v == core::kNoSample ? lo : std::min(lo, v);
            hi = std::max(hi, v); // kNoSample is INT32_MIN: never raises the maximum
        }
        s.minimum[k] = lo, s.maximum[k] = hi, s.hasNaN[k] = nan;
        s.anyNaN |= nan;
    }
    return s;
}

Pyramid::Pyramid(const core::BlockSource& source, std::size_t channels, std::uint32_t binSamples)
    : m_source(source)
    , m_bin(std::max<std::uint32_t>(binSamples, 1))
    , m_channels(channels)
{}

Pyramid::~Pyramid()
{
    if (m_cache) m_cache->release(m_owner);
}

void Pyramid::chargeTo(BlockCache& cache, std::uint64_t owner)
{
    std::lock_guard lock(m_mutex);
    m_cache = &cache;
    m_owner = owner;
    (void)charge(m_bytes, true);
}

bool Pyramid::charge(std::size_t bytes, bool force) const
{
    if (m_cache && !m_cache->reserve(m_owner, bytes, force)) return false;
    m_bytes += bytes;
    return true;
}

Pyramid::Channel& Pyramid::channel(std::size_t c) const
{
    auto& slot = m_channels.at(c);
    if (!slot) {
        slot = std::make_unique<Channel>();
        const auto blocks = m_source.blocks(c);
        slot->firstBin.resize(blocks.size() + 1);
        for (std::size_t b = 0; b < blocks.size(); ++b)
            slot->firstBin[b + 1] = slot->firstBin[b] + (blocks[b].count + m_bin - 1) / m_bin;
        slot->state.assign(blocks.size(), 0);
        slot->chunks.resize((blocks.size() + Channel::kChunkBlocks - 1) / Channel::kChunkBlocks);
        (void)charge(sizeof(Channel) + slot->firstBin.size() * 8 + slot->state.size() + slot->chunks.size() * 8, true);
    }
    return *slot;
}

void Pyramid::store(Channel& ch, std::size_t block, const BlockSummary& s)
{
    if (block >= ch.state.size() || ch.state[block] || s.minimum.size() != ch.firstBin[block + 1] - ch.firstBin[block])
        return;
    auto& chunk = ch.chunks[block / Channel::kChunkBlocks];
    if (!chunk) {
        const std::size_t bins = ch.chunkBins(block);
        if (!charge(Channel::chunkBytes(bins) + 16, false)) return; // 16: the allocator's header
        chunk.reset(new std::int32_t[Channel::chunkBytes(bins) / sizeof(std::int32_t)]);
    }
    const std::size_t n = ch.chunkBins(block), at = ch.firstBin[block] - ch.firstBin[ch.chunkFirstBlock(block)];
    std::copy(s.minimum.begin(), s.minimum.end(), chunk.get() + at);
    std::copy(s.maximum.begin(), s.maximum.end(), chunk.get() + n + at);
    std::copy(s.hasNaN.begin(), s.hasNaN.end(), reinterpret_cast<std::uint8_t*>(chunk.get() + 2 * n) + at);
    ch.state[block] = s.anyNaN ? 3 : 1;
    ++ch.built;
}

void Pyramid::add(std::size_t c, std::size_t block, std::span<const std::int32_t> samples)
{
    const BlockSummary summary = summarize(samples, m_bin);
    std::lock_guard lock(m_mutex);
    store(channel(c), block, summary);
}

std::optional<BlockBins> Pyramid::find(std::size_t c, std::size_t block) const
{
    std::lock_guard lock(m_mutex);
    if (c >= m_channels.size() || !m_channels[c]) return std::nullopt;
    const Channel& ch = *m_channels[c];
    if (block >= ch.state.size() || !ch.state[block]) return std::nullopt;
    return ch.bins(block);
}

std::size_t Pyramid::builtBlocks() const
{
    std::lock_guard lock(m_mutex);
    std::size_t n = 0;
    for (const auto& ch : m_channels) n += ch ? ch->built : 0;
    return n;
}

std::size_t Pyramid::bytes() const
{
    std::lock_guard lock(m_mutex);
    return m_bytes;
}

// FNV-1a over the channel's block list (position, length, stored extrema) and the bin width.
std::uint64_t Pyramid::shapeHash(std::size_t c) const
{
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&h](std::uint64_t v) {
        for (int i = 0; i < 8; ++i, v >>= 8) h = (h ^ (v & 0xff)) * 1099511628211ull;
    };
    mix(m_bin);
    for (const core::BlockSpan& s : m_source.blocks(c)) {
        mix(static_cast<std::uint64_t>(s.first)), mix(s.count);
        mix(static_cast<std::uint32_t>(s.minimum)), mix(static_cast<std::uint32_t>(s.maximum));
    }
    return h;
}

// Serialised channel by channel (under the lock) and handed to the compressor in pieces: the save holds about
// one channel's bins, never the whole content or file.
core::Status Pyramid::save(const std::string& file) const
{
    std::uint8_t head[12];
    std::memcpy(head, kMagic, sizeof kMagic);
    core::le::store<std::uint32_t>(head + 8, 1);
    auto out = ZstdFileWriter::create(file, head, 1);
    if (!out) return out.error();
    core::ByteWriter w;
    w.put<std::uint32_t>(m_bin);
    w.put<std::uint64_t>(m_channels.size());
    for (std::size_t c = 0; c < m_channels.size(); ++c) {
        {
            std::lock_guard lock(m_mutex);
            writeChannel(w, c);
        }
        LV_TRY((*out)->write(w.b));
        w.b.clear();
    }
    return (*out)->commit();
}

void Pyramid::writeChannel(core::ByteWriter& w, std::size_t c) const
{
    const Channel* ch = m_channels[c].get();
    const std::uint64_t built = ch ? ch->built : 0;
    w.put<std::uint64_t>(built ? shapeHash(c) : 0);
    w.put<std::uint64_t>(built);
    for (std::size_t b = 0; built && b < ch->state.size(); ++b) {
        if (!ch->state[b]) continue;
        w.put<std::uint64_t>(b);
        w.put<std::uint32_t>(static_cast<std::uint32_t>(ch->firstBin[b + 1] - ch->firstBin[b]));
        const BlockBins bins = ch->bins(b);
        for (std::size_t k = 0; k < bins.minimum.size(); ++k) w.put(bins.minimum[k]), w.put(bins.maximum[k]);
        w.bytes(bins.hasNaN.data(), bins.hasNaN.size());
    }
}

// One pass over the file's frame: checks its structure and, with `keep`, stores the summaries of channels
// whose block lists are unchanged. Memory: one block's bins at a time.
bool Pyramid::readFrame(ZstdFileReader& in, bool keep)
{
    const auto get = [&in]<typename T>(T& v) {
        std::uint8_t b[sizeof(T)];
        if (!in.read(b, sizeof b)) return false;
        v = core::le::load<T>(b);
        return true;
    };
    std::uint32_t bin = 0;
    std::uint64_t channels = 0;
    if (!get(bin) || !get(channels) || bin != m_bin || channels != m_channels.size()) return false;
    BlockSummary s;
    std::vector<std::uint8_t> pairs;
    for (std::size_t c = 0; c < m_channels.size(); ++c) {
        std::uint64_t hash = 0, built = 0;
        if (!get(hash) || !get(built)) return false;
        const bool same = keep && built > 0 && hash == shapeHash(c);
        const std::span<const core::BlockSpan> blocks = same ? m_source.blocks(c) : std::span<const core::BlockSpan>();
        for (std::uint64_t i = 0; i < built; ++i) {
            std::uint64_t b = 0;
            std::uint32_t bins = 0;
            if (!get(b) || !get(bins)) return false;
            if (!same || b >= blocks.size() || bins != (blocks[b].count + m_bin - 1) / m_bin) {
                if (!in.skip(std::size_t{bins} * 9)) return false;
                continue;
            }
            pairs.resize(std::size_t{bins} * 8);
            s.minimum.resize(bins), s.maximum.resize(bins), s.hasNaN.resize(bins);
            if (!in.read(pairs.data(), pairs.size()) || !in.read(s.hasNaN.data(), bins)) return false;
            for (std::uint32_t k = 0; k < bins; ++k) {
                s.minimum[k] = core::le::load<std::int32_t>(&pairs[std::size_t{8} * k]);
                s.maximum[k] = core::le::load<std::int32_t>(&pairs[8 * k + 4]);
            }
            s.anyNaN = std::any_of(s.hasNaN.begin(), s.hasNaN.end(), [](std::uint8_t f) { return f != 0; });
            std::lock_guard lock(m_mutex);
            store(channel(c), b, s);
        }
    }
    return in.atEnd();
}

core::Status Pyramid::load(const std::string& file)
{
    auto opened = io::openFile(file);
    if (!opened) return opened.error();
    const io::ByteSourcePtr source = *opened;
    const auto damaged = [&] { return makeError(ErrorCode::Corrupt, "damaged or old pyramid file", file); };
    std::uint8_t head[12];
    if (source->size() < 12 || !source->readAt(0, head) || std::memcmp(head, kMagic, sizeof kMagic) != 0 ||
        core::le::load<std::uint32_t>(head + 8) != 1)
        return damaged();
    // First the whole frame is checked (its content checksum is at its end), then read again into the pyramid.
    if (ZstdFileReader check(source, 12); !readFrame(check, false)) return damaged();
    if (ZstdFileReader in(source, 12); !readFrame(in, true)) return damaged();
    return {};
}

} // namespace lv::cache
