// Block summaries in chunks of bins under one mutex, charged to the cache budget; saved as "LVPYR001" + zstd.
#include "cache/Pyramid.h"

#include "core/ByteFields.h"
#include "io/ByteSource.h"
#include "io/WritableFile.h"

#include <algorithm>
#include <cstring>
#include <zstd.h>

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

core::Status Pyramid::save(const std::string& file) const
{
    core::ByteWriter w;
    w.put<std::uint32_t>(m_bin);
    w.put<std::uint64_t>(m_channels.size());
    std::lock_guard lock(m_mutex);
    for (std::size_t c = 0; c < m_channels.size(); ++c) {
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
    const std::vector<std::uint8_t>& o = w.b;
    std::vector<std::uint8_t> out(12 + ZSTD_compressBound(o.size()));
    std::memcpy(out.data(), kMagic, sizeof kMagic);
    core::le::store<std::uint32_t>(&out[8], 1);
    ZSTD_CCtx* cctx = ZSTD_createCCtx(); // with a content checksum: a damaged file never loads
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 1);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    const std::size_t packed = ZSTD_compress2(cctx, out.data() + 12, out.size() - 12, o.data(), o.size());
    ZSTD_freeCCtx(cctx);
    if (ZSTD_isError(packed)) return makeError(ErrorCode::Io, "cannot compress the pyramid", file);
    out.resize(12 + packed);
    return io::replaceFile(file, out, false);
}

core::Status Pyramid::load(const std::string& file)
{
    auto bytes = io::readFile(file);
    if (!bytes) return bytes.error();
    const auto damaged = [&] { return makeError(ErrorCode::Corrupt, "damaged or old pyramid file", file); };
    if (bytes->size() < 12 || std::memcmp(bytes->data(), kMagic, sizeof kMagic) != 0 ||
        core::le::load<std::uint32_t>(bytes->data() + 8) != 1)
        return damaged();
    const unsigned long long size = ZSTD_getFrameContentSize(bytes->data() + 12, bytes->size() - 12);
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (1ull << 32)) return damaged();
    std::vector<std::uint8_t> payload(size);
    if (ZSTD_decompress(payload.data(), payload.size(), bytes->data() + 12, bytes->size() - 12) != size)
        return damaged();
    core::ByteReader in{payload};
    if (in.get<std::uint32_t>() != m_bin || in.get<std::uint64_t>() != m_channels.size()) return damaged();
    std::vector<std::vector<std::pair<std::size_t, BlockSummary>>> found(m_channels.size());
    for (std::size_t c = 0; c < m_channels.size() && in.ok; ++c) {
        const auto hash = in.get<std::uint64_t>();
        const auto built = in.get<std::uint64_t>();
        if (!in.fits(built * 12)) break;
        const bool same = built > 0 && hash == shapeHash(c);
        const std::size_t blocks = m_source.blocks(c).size();
        for (std::uint64_t i = 0; i < built && in.ok; ++i) {
            const auto b = in.get<std::uint64_t>();
            const auto bins = in.get<std::uint32_t>();
            if (!in.fits(std::uint64_t{bins} * 9)) break;
            BlockSummary s;
            s.minimum.resize(bins), s.maximum.resize(bins);
            for (std::uint32_t k = 0; k < bins; ++k)
                s.minimum[k] = in.get<std::int32_t>(), s.maximum[k] = in.get<std::int32_t>();
            s.hasNaN.assign(payload.begin() + static_cast<std::ptrdiff_t>(in.at),
                            payload.begin() + static_cast<std::ptrdiff_t>(in.at + bins));
            in.at += bins;
            s.anyNaN = std::any_of(s.hasNaN.begin(), s.hasNaN.end(), [](std::uint8_t f) { return f != 0; });
            const std::uint32_t count = b < blocks ? m_source.blocks(c)[b].count : 0;
            if (same && b < blocks && bins == (count + m_bin - 1) / m_bin) found[c].emplace_back(b, std::move(s));
        }
    }
    if (!in.ok || in.at != payload.size()) return damaged();
    std::lock_guard lock(m_mutex);
    for (std::size_t c = 0; c < found.size(); ++c)
        for (const auto& [b, s] : found[c]) store(channel(c), b, s);
    return {};
}

} // namespace lv::cache
