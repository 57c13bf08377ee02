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

// Raw bytes for the block loop (the hot part of a channel's first use): one bounds check per byte.
struct Bytes {
    const std::uint8_t* p;
    const std::uint8_t* end;
    bool ok = true;
    std::uint8_t byte()
    {
        if (p == end) return ok = false, 0;
        return *p++;
    }
    std::uint64_t varint()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64 && p != end; shift += 7) {
            const std::uint8_t b = *p++;
            v |= static_cast<std::uint64_t>(b & 0x7F) << shift;
            if (!(b & 0x80)) return v;
        }
        ok = false;
        return 0;
    }
};

// Wrapping (two's complement) sum and difference: the deltas of absurd values must round-trip, not overflow.
std::int64_t wrapAdd(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
std::int64_t wrapSub(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}

std::uint64_t zig(std::int64_t v) { return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63); }
std::int64_t unzig(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

// Block durations in microseconds, remembered for the last block length (most blocks share one).
struct Durations {
    double fs = 0;
    std::uint32_t count = 0;
    std::int64_t us = 0;
    std::int64_t of(std::uint32_t samples)
    {
        if (samples != count) count = samples, us = fs > 0 ? std::llround(static_cast<double>(samples) * 1e6 / fs) : 0;
        return us;
    }
};

// What the block after `p` is expected to be.
BlockRef predictNext(const BlockRef& p, Durations& durations)
{
    BlockRef n = p;
    n.indexEntry = p.indexEntry + 1;
    n.fileOffset = wrapAdd(p.fileOffset, p.blockBytes);
    n.gridIndex = wrapAdd(p.gridIndex, p.sampleCount);
    n.startTime = wrapAdd(p.startTime, durations.of(p.sampleCount));
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

void putByteRanges(Out& o, const std::vector<io::ByteRange>& ranges)
{
    o.put<std::uint64_t>(ranges.size());
    for (const io::ByteRange& r : ranges) o.put(r.offset), o.put(r.size);
}

std::vector<io::ByteRange> getByteRanges(In& in)
{
    std::vector<io::ByteRange> ranges(in.count(16));
    for (io::ByteRange& r : ranges) r.offset = in.get<std::uint64_t>(), r.size = in.get<std::uint64_t>();
    return ranges;
}

void putStamps(Out& o, const std::vector<SegmentStamp>& stamps)
{
    o.put<std::uint64_t>(stamps.size());
    for (const SegmentStamp& segment : stamps) {
        o.put<std::uint64_t>(segment.size());
        for (const FileStamp& f : segment) o.put(f.size), o.put(f.mtimeNs), o.put(f.ctimeNs), o.put(f.inode);
    }
}

std::vector<SegmentStamp> getStamps(In& in)
{
    std::vector<SegmentStamp> stamps(in.count(8));
    for (SegmentStamp& segment : stamps) {
        segment.resize(in.count(32));
        for (FileStamp& f : segment)
            f.size = in.get<std::uint64_t>(), f.mtimeNs = in.get<std::int64_t>(), f.ctimeNs = in.get<std::int64_t>(),
            f.inode = in.get<std::uint64_t>();
    }
    return stamps;
}

void putFingerprint(Out& o, const Fingerprint& f)
{
    o.text(f.root), o.put<std::uint8_t>(f.archive), o.text(f.sessionDir);
    putEntries(o, {f.archiveFile});
    putStamps(o, {{f.archiveStamp}});
    putEntries(o, f.session);
    o.put<std::uint64_t>(f.channels.size());
    for (const ChannelStamp& c : f.channels) {
        o.text(c.dir), o.put(c.mtimeNs), o.put(c.ctimeNs), o.put(c.stampedAtNs), o.put(c.entries), o.put(c.namesHash);
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
    const auto archiveStamp = getStamps(in);
    if (archiveStamp.size() != 1 || archiveStamp.front().size() != 1) return in.ok = false, f;
    f.archiveStamp = archiveStamp.front().front();
    f.session = getEntries(in);
    f.channels.resize(in.count(64));
    for (ChannelStamp& c : f.channels) {
        c.dir = in.text(), c.mtimeNs = in.get<std::int64_t>(), c.ctimeNs = in.get<std::int64_t>();
        c.stampedAtNs = in.get<std::int64_t>(), c.entries = in.get<std::uint64_t>();
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
    Durations durations{fs};
    BlockRef prev{};
    for (const BlockRef& b : blocks) {
        const BlockRef e = predictNext(prev, durations);
        const std::uint8_t bits = differences(b, e);
        o.put(bits);
        if (bits & kOtherSegment) putVarint(o, b.segment), putVarint(o, b.indexEntry);
        if (bits & (kOtherSegment | kOtherFileAt)) putVarint(o, static_cast<std::uint64_t>(b.fileOffset));
        if (bits & kOtherGridAt) putVarint(o, zig(wrapSub(b.gridIndex, e.gridIndex)));
        if (bits & kOtherCount) putVarint(o, b.sampleCount);
        if (bits & kOtherTime) putVarint(o, zig(wrapSub(b.startTime, e.startTime)));
        if (bits & kOtherFlags) o.put(b.flags);
        putVarint(o, zig(static_cast<std::int64_t>(b.blockBytes) - prev.blockBytes));
        putVarint(o, zig(static_cast<std::int64_t>(b.minimum) - prev.minimum));
        putVarint(o, zig(static_cast<std::int64_t>(b.maximum) - prev.maximum));
        prev = b;
    }
}

// Fields are kept in locals rather than copied as a struct just written field by field (store-forwarding stalls:
// 276k blocks took 18 ms that way, 13 ms this way, most of the rest being page faults of the new vectors).
std::vector<BlockRef> getBlocks(In& in, double fs)
{
    const std::size_t count = in.count(4);
    std::vector<BlockRef> blocks;
    blocks.reserve(count);
    Bytes r{in.b.data() + in.at, in.b.data() + in.b.size()};
    Durations durations{fs};
    std::uint32_t segment = 0, indexEntry = 0, blockBytes = 0, sampleCount = 0;
    std::int64_t fileOffset = 0, gridIndex = 0, startTime = 0;
    std::int32_t minimum = 0, maximum = 0;
    std::uint8_t flags = 0;
    for (std::size_t i = 0; i < count && r.ok; ++i) {
        ++indexEntry, fileOffset = wrapAdd(fileOffset, blockBytes), gridIndex = wrapAdd(gridIndex, sampleCount);
        startTime = wrapAdd(startTime, durations.of(sampleCount));
        const std::uint8_t bits = r.byte();
        if (bits & kOtherSegment) {
            segment = static_cast<std::uint32_t>(r.varint());
            indexEntry = static_cast<std::uint32_t>(r.varint());
        }
        if (bits & (kOtherSegment | kOtherFileAt)) fileOffset = static_cast<std::int64_t>(r.varint());
        if (bits & kOtherGridAt) gridIndex = wrapAdd(gridIndex, unzig(r.varint()));
        if (bits & kOtherCount) sampleCount = static_cast<std::uint32_t>(r.varint());
        if (bits & kOtherTime) startTime = wrapAdd(startTime, unzig(r.varint()));
        if (bits & kOtherFlags) flags = r.byte();
        blockBytes = static_cast<std::uint32_t>(wrapAdd(blockBytes, unzig(r.varint())));
        minimum = static_cast<std::int32_t>(wrapAdd(minimum, unzig(r.varint())));
        maximum = static_cast<std::int32_t>(wrapAdd(maximum, unzig(r.varint())));
        blocks.push_back(BlockRef{segment, indexEntry, fileOffset, blockBytes, sampleCount, startTime, gridIndex,
                                  minimum, maximum, flags});
    }
    if (!r.ok) in.ok = false;
    in.at = static_cast<std::size_t>(r.p - in.b.data());
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
