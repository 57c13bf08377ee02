// Snapshot field encoding: fingerprints, channels, annotations, delta/varint-coded block references, checksum.
#include "formats/mef3/SnapshotFormat.h"

#include <bit>
#include <cmath>

namespace lv::formats::mef3::snapshot {

namespace {

void putRanges(Out& o, const std::vector<core::TimeRange>& ranges)
{
    o.put<std::uint64_t>(ranges.size());
    for (const core::TimeRange& r : ranges) o.put(r.start), o.put(r.end);
}

std::vector<core::TimeRange> getRanges(In& in)
{
    std::vector<core::TimeRange> ranges(in.count(16));
    for (core::TimeRange& r : ranges) r.start = in.get<std::int64_t>(), r.end = in.get<std::int64_t>();
    return ranges;
}

void putEntries(Out& o, const std::vector<io::TreeEntry>& entries)
{
    o.put<std::uint64_t>(entries.size());
    for (const io::TreeEntry& e : entries)
        o.text(e.name), o.put<std::uint8_t>(e.isDirectory), o.put(e.size), o.put(e.mtimeNs);
}

std::vector<io::TreeEntry> getEntries(In& in)
{
    std::vector<io::TreeEntry> entries(in.count(21));
    for (io::TreeEntry& e : entries)
        e.name = in.text(), e.isDirectory = in.get<std::uint8_t>(), e.size = in.get<std::uint64_t>(),
        e.mtimeNs = in.get<std::int64_t>();
    return entries;
}

// Blocks are stored as differences from what the previous block predicts (next in the file, next on the grid,
// same length, time advanced by its duration), as varints: a regular block costs about six bytes.
enum BlockBits : std::uint8_t {
    kOtherSegment = 1, // segment, index entry and file offset follow
    kOtherFileAt = 2,  // file offset follows
    kOtherGridAt = 4,  // grid index delta follows
    kOtherCount = 8,   // sample count follows
    kOtherTime = 16,   // start time delta from the prediction follows
    kOtherFlags = 32,  // RED flags follow
};

void putVarint(Out& o, std::uint64_t v)
{
    while (v >= 0x80) o.put<std::uint8_t>(static_cast<std::uint8_t>(v | 0x80)), v >>= 7;
    o.put<std::uint8_t>(static_cast<std::uint8_t>(v));
}

std::uint64_t getVarint(In& in)
{
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64 && in.ok; shift += 7) {
        const auto byte = in.get<std::uint8_t>();
        v |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
        if (!(byte & 0x80)) return v;
    }
    in.ok = false;
    return 0;
}

std::uint64_t zig(std::int64_t v) { return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63); }
std::int64_t unzig(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

// What the block after `p` is expected to be.
BlockRef predictNext(const BlockRef& p, double fs)
{
    BlockRef n = p;
    n.indexEntry = p.indexEntry + 1;
    n.fileOffset = p.fileOffset + p.blockBytes;
    n.gridIndex = p.gridIndex + p.sampleCount;
    n.startTime = p.startTime + (fs > 0 ? std::llround(static_cast<double>(p.sampleCount) * 1e6 / fs) : 0);
    return n;
}

std::uint8_t differences(const BlockRef& b, const BlockRef& e)
{
    std::uint8_t bits = 0;
    if (b.segment != e.segment || b.indexEntry != e.indexEntry)
        bits |= kOtherSegment;
    else if (b.fileOffset != e.fileOffset)
        bits |= kOtherFileAt;
    if (b.gridIndex != e.gridIndex) bits |= kOtherGridAt;
    if (b.sampleCount != e.sampleCount) bits |= kOtherCount;
    if (b.startTime != e.startTime) bits |= kOtherTime;
    if (b.flags != e.flags) bits |= kOtherFlags;
    return bits;
}

// xxHash64's round and merge: bijective in the accumulator, so one changed word always changes the result.
constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ull, kP2 = 0xC2B2AE3D27D4EB4Full, kP4 = 0x85EBCA77C2B2AE63ull;
std::uint64_t hashRound(std::uint64_t acc, std::uint64_t word) { return std::rotl(acc + word * kP2, 31) * kP1; }
std::uint64_t hashMerge(std::uint64_t h, std::uint64_t lane) { return (h ^ hashRound(0, lane)) * kP1 + kP4; }

} // namespace

void putStrings(Out& o, const std::vector<std::string>& list)
{
    o.put<std::uint64_t>(list.size());
    for (const std::string& s : list) o.text(s);
}

std::vector<std::string> getStrings(In& in)
{
    std::vector<std::string> list(in.count(4));
    for (std::string& s : list) s = in.text();
    return list;
}

void putFingerprint(Out& o, const Fingerprint& f)
{
    o.text(f.root), o.put<std::uint8_t>(f.archive), o.text(f.sessionDir);
    putEntries(o, {f.archiveFile});
    putEntries(o, f.session);
    o.put<std::uint64_t>(f.channels.size());
    for (const ChannelStamp& c : f.channels) {
        o.text(c.dir), o.put(c.mtimeNs), o.put(c.entries), o.put(c.namesHash);
        putEntries(o, c.files);
        o.text(c.lastSegmentDir);
        putEntries(o, c.lastSegment);
    }
}

Fingerprint getFingerprint(In& in)
{
    Fingerprint f;
    f.root = in.text(), f.archive = in.get<std::uint8_t>(), f.sessionDir = in.text();
    const auto archive = getEntries(in);
    if (archive.size() != 1) return in.ok = false, f;
    f.archiveFile = archive.front();
    f.session = getEntries(in);
    f.channels.resize(in.count(48));
    for (ChannelStamp& c : f.channels) {
        c.dir = in.text(), c.mtimeNs = in.get<std::int64_t>(), c.entries = in.get<std::uint64_t>();
        c.namesHash = in.get<std::uint64_t>();
        c.files = getEntries(in);
        c.lastSegmentDir = in.text();
        c.lastSegment = getEntries(in);
    }
    return f;
}

void putChannel(Out& o, const core::ChannelInfo& c)
{
    o.text(c.name), o.put(c.fs), o.text(c.unit), o.put(c.conversionFactor), o.put(c.start), o.put(c.end);
    o.put(c.sampleCount), o.put(c.gridLength), o.text(c.description);
    putRanges(o, c.segments);
    putRanges(o, c.gaps);
}

core::ChannelInfo getChannel(In& in)
{
    core::ChannelInfo c;
    c.name = in.text(), c.fs = in.get<double>(), c.unit = in.text(), c.conversionFactor = in.get<double>();
    c.start = in.get<std::int64_t>(), c.end = in.get<std::int64_t>();
    c.sampleCount = in.get<std::int64_t>(), c.gridLength = in.get<std::int64_t>(), c.description = in.text();
    c.segments = getRanges(in);
    c.gaps = getRanges(in);
    return c;
}

void putAnnotation(Out& o, const core::Annotation& a)
{
    o.put(a.time), o.put(a.durationUs), o.text(a.type), o.text(a.text);
    o.put<std::uint8_t>(a.channel.has_value());
    o.text(a.channel.value_or(""));
}

core::Annotation getAnnotation(In& in)
{
    core::Annotation a;
    a.time = in.get<std::int64_t>(), a.durationUs = in.get<std::int64_t>(), a.type = in.text(), a.text = in.text();
    const bool hasChannel = in.get<std::uint8_t>();
    std::string channel = in.text();
    if (hasChannel) a.channel = std::move(channel);
    return a;
}

void putBlocks(Out& o, const std::vector<BlockRef>& blocks, double fs)
{
    o.put<std::uint64_t>(blocks.size());
    BlockRef prev{};
    for (const BlockRef& b : blocks) {
        const BlockRef e = predictNext(prev, fs);
        const std::uint8_t bits = differences(b, e);
        o.put(bits);
        if (bits & kOtherSegment) putVarint(o, b.segment), putVarint(o, b.indexEntry);
        if (bits & (kOtherSegment | kOtherFileAt)) putVarint(o, static_cast<std::uint64_t>(b.fileOffset));
        if (bits & kOtherGridAt) putVarint(o, zig(b.gridIndex - e.gridIndex));
        if (bits & kOtherCount) putVarint(o, b.sampleCount);
        if (bits & kOtherTime) putVarint(o, zig(b.startTime - e.startTime));
        if (bits & kOtherFlags) o.put(b.flags);
        putVarint(o, zig(static_cast<std::int64_t>(b.blockBytes) - prev.blockBytes));
        putVarint(o, zig(static_cast<std::int64_t>(b.minimum) - prev.minimum));
        putVarint(o, zig(static_cast<std::int64_t>(b.maximum) - prev.maximum));
        prev = b;
    }
}

std::vector<BlockRef> getBlocks(In& in, double fs)
{
    std::vector<BlockRef> blocks(in.count(4));
    BlockRef prev{};
    for (BlockRef& b : blocks) {
        b = predictNext(prev, fs);
        const auto bits = in.get<std::uint8_t>();
        if (bits & kOtherSegment) {
            b.segment = static_cast<std::uint32_t>(getVarint(in));
            b.indexEntry = static_cast<std::uint32_t>(getVarint(in));
        }
        if (bits & (kOtherSegment | kOtherFileAt)) b.fileOffset = static_cast<std::int64_t>(getVarint(in));
        if (bits & kOtherGridAt) b.gridIndex += unzig(getVarint(in));
        if (bits & kOtherCount) b.sampleCount = static_cast<std::uint32_t>(getVarint(in));
        if (bits & kOtherTime) b.startTime += unzig(getVarint(in));
        if (bits & kOtherFlags) b.flags = in.get<std::uint8_t>();
        b.blockBytes = static_cast<std::uint32_t>(prev.blockBytes + unzig(getVarint(in)));
        b.minimum = static_cast<std::int32_t>(prev.minimum + unzig(getVarint(in)));
        b.maximum = static_cast<std::int32_t>(prev.maximum + unzig(getVarint(in)));
        prev = b;
    }
    return blocks;
}

std::uint64_t checksum(std::span<const std::uint8_t> bytes)
{
    std::uint64_t lane[4] = {kP1 + kP2, kP2, 0, 0 - kP1};
    const std::size_t words = bytes.size() / 8;
    std::size_t w = 0;
    for (; w + 4 <= words; w += 4)
        for (int k = 0; k < 4; ++k) lane[k] = hashRound(lane[k], core::le::load<std::uint64_t>(&bytes[(w + k) * 8]));
    for (; w < words; ++w) lane[0] = hashRound(lane[0], core::le::load<std::uint64_t>(&bytes[w * 8]));
    std::uint64_t tail = 0;
    for (std::size_t i = words * 8; i < bytes.size(); ++i) tail |= std::uint64_t{bytes[i]} << (8 * (i - words * 8));
    std::uint64_t h = bytes.size() * kP1;
    for (const std::uint64_t l : lane) h = hashMerge(h, l);
    h = hashMerge(h, tail);
    h ^= h >> 33, h *= kP2, h ^= h >> 29, h *= kP1, h ^= h >> 32;
    return h;
}

} // namespace lv::formats::mef3::snapshot
