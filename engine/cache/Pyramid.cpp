// Block summaries in bins, held per channel under one mutex; saved as "LVPYR001" + a zstd frame.
#include "cache/Pyramid.h"

#include "core/LittleEndian.h"
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

void put(std::vector<std::uint8_t>& b, const void* p, std::size_t n)
{
    const auto* bytes = static_cast<const std::uint8_t*>(p);
    b.insert(b.end(), bytes, bytes + n);
}

template <typename T>
void putLe(std::vector<std::uint8_t>& b, T v)
{
    std::uint8_t raw[sizeof(T)];
    core::le::store<T>(raw, v);
    put(b, raw, sizeof raw);
}

// Bounds-checked little-endian reader; an overrun marks the file damaged.
struct Reader {
    std::span<const std::uint8_t> b;
    std::size_t at = 0;
    bool ok = true;
    template <typename T>
    T get()
    {
        if (!ok || b.size() - at < sizeof(T)) return ok = false, T{};
        const T v = core::le::load<T>(b.data() + at);
        at += sizeof(T);
        return v;
    }
    bool fits(std::uint64_t n) { return ok = ok && n <= b.size() - at; }
};

} // namespace

struct Pyramid::Channel {
    std::vector<SummaryPtr> blocks;
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

Pyramid::~Pyramid() = default;

Pyramid::Channel& Pyramid::channel(std::size_t c) const // m_mutex held
{
    auto& slot = m_channels.at(c);
    if (!slot) {
        slot = std::make_unique<Channel>();
        slot->blocks.resize(m_source.blocks(c).size());
    }
    return *slot;
}

void Pyramid::add(std::size_t c, std::size_t block, std::span<const std::int32_t> samples)
{
    auto summary = std::make_shared<const BlockSummary>(summarize(samples, m_bin));
    std::lock_guard lock(m_mutex);
    Channel& ch = channel(c);
    if (block < ch.blocks.size() && !ch.blocks[block]) ch.blocks[block] = std::move(summary);
}

SummaryPtr Pyramid::find(std::size_t c, std::size_t block) const
{
    std::lock_guard lock(m_mutex);
    if (c >= m_channels.size() || !m_channels[c]) return nullptr;
    const auto& blocks = m_channels[c]->blocks;
    return block < blocks.size() ? blocks[block] : nullptr;
}

std::size_t Pyramid::builtBlocks() const
{
    std::lock_guard lock(m_mutex);
    std::size_t n = 0;
    for (const auto& ch : m_channels)
        if (ch)
            n += static_cast<std::size_t>(
                std::count_if(ch->blocks.begin(), ch->blocks.end(), [](const SummaryPtr& s) { return s != nullptr; }));
    return n;
}

std::size_t Pyramid::bytes() const
{
    std::lock_guard lock(m_mutex);
    std::size_t n = 0;
    for (const auto& ch : m_channels) {
        if (!ch) continue;
        n += ch->blocks.size() * sizeof(SummaryPtr);
        for (const SummaryPtr& s : ch->blocks)
            if (s) n += sizeof(BlockSummary) + 64 + s->minimum.size() * 9;
    }
    return n;
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
    std::vector<std::uint8_t> o;
    putLe<std::uint32_t>(o, m_bin);
    putLe<std::uint64_t>(o, m_channels.size());
    std::lock_guard lock(m_mutex);
    for (std::size_t c = 0; c < m_channels.size(); ++c) {
        const Channel* ch = m_channels[c].get();
        const std::uint64_t built = ch ? static_cast<std::uint64_t>(std::count_if(ch->blocks.begin(), ch->blocks.end(),
                                                                                  [](auto& s) { return s != nullptr; }))
                                       : 0;
        putLe<std::uint64_t>(o, built ? shapeHash(c) : 0);
        putLe<std::uint64_t>(o, built);
        for (std::size_t b = 0; built && b < ch->blocks.size(); ++b) {
            const SummaryPtr& s = ch->blocks[b];
            if (!s) continue;
            putLe<std::uint64_t>(o, b);
            putLe<std::uint32_t>(o, static_cast<std::uint32_t>(s->minimum.size()));
            for (std::size_t k = 0; k < s->minimum.size(); ++k) putLe(o, s->minimum[k]), putLe(o, s->maximum[k]);
            put(o, s->hasNaN.data(), s->hasNaN.size());
        }
    }
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
    Reader in{payload};
    if (in.get<std::uint32_t>() != m_bin || in.get<std::uint64_t>() != m_channels.size()) return damaged();
    std::vector<std::vector<std::pair<std::size_t, SummaryPtr>>> found(m_channels.size());
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
            if (same && b < blocks && bins == (count + m_bin - 1) / m_bin)
                found[c].emplace_back(b, std::make_shared<const BlockSummary>(std::move(s)));
        }
    }
    if (!in.ok || in.at != payload.size()) return damaged();
    std::lock_guard lock(m_mutex);
    for (std::size_t c = 0; c < found.size(); ++c)
        for (auto& [b, s] : found[c])
            if (!channel(c).blocks[b]) channel(c).blocks[b] = std::move(s);
    return {};
}

} // namespace lv::cache
