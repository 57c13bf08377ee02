// Snapshot files: "LVSNAP" + version, zstd frame of little-endian fields; fingerprints compared field by field.
#include "formats/mef3/Snapshot.h"

#include "core/LittleEndian.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Password.h"
#include "io/WritableFile.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <zstd.h>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;
namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'L', 'V', 'S', 'N', 'A', 'P', '0', '1'};
constexpr std::uint32_t kVersion = 2; // bump whenever the layout below or what the reader computes changes

// Little-endian field writer.
struct Out {
    std::vector<std::uint8_t> b;
    template <typename T>
    void put(T v)
    {
        const std::size_t at = b.size();
        b.resize(at + sizeof(T));
        core::le::store<T>(&b[at], v);
    }
    void text(const std::string& s)
    {
        put<std::uint32_t>(static_cast<std::uint32_t>(s.size()));
        b.insert(b.end(), s.begin(), s.end());
    }
};

// Bounds-checked reader: any overrun marks the snapshot damaged and yields zeros.
struct In {
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
    std::string text()
    {
        const auto n = get<std::uint32_t>();
        if (!ok || b.size() - at < n) return ok = false, std::string{};
        std::string s(reinterpret_cast<const char*>(b.data() + at), n);
        at += n;
        return s;
    }
    std::size_t count(std::size_t itemBytes) // a vector length that the remaining bytes can hold
    {
        const auto n = get<std::uint64_t>();
        if (!ok || n > (b.size() - at) / std::max<std::size_t>(itemBytes, 1)) return ok = false, 0;
        return static_cast<std::size_t>(n);
    }
};

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

void putFingerprint(Out& o, const Fingerprint& f)
{
    o.put<std::uint64_t>(f.listings.size());
    for (const auto& l : f.listings) {
        o.text(l.dir);
        o.put<std::uint64_t>(l.entries.size());
        for (const io::TreeEntry& e : l.entries)
            o.text(e.name), o.put<std::uint8_t>(e.isDirectory), o.put(e.size), o.put(e.mtimeNs);
    }
}

Fingerprint getFingerprint(In& in)
{
    Fingerprint f;
    f.listings.resize(in.count(12));
    for (auto& l : f.listings) {
        l.dir = in.text();
        l.entries.resize(in.count(21));
        for (io::TreeEntry& e : l.entries)
            e.name = in.text(), e.isDirectory = in.get<std::uint8_t>(), e.size = in.get<std::uint64_t>(),
            e.mtimeNs = in.get<std::int64_t>();
    }
    return f;
}

bool sameEntries(const std::vector<io::TreeEntry>& a, const std::vector<io::TreeEntry>& b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
               return x.name == y.name && x.isDirectory == y.isDirectory && x.mtimeNs == y.mtimeNs &&
                      (x.isDirectory || x.size == y.size);
           });
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

void putBlocks(Out& o, const std::vector<BlockRef>& blocks, double fs)
{
    o.put<std::uint64_t>(blocks.size());
    BlockRef prev{};
    for (const BlockRef& b : blocks) {
        const BlockRef e = predictNext(prev, fs);
        std::uint8_t bits = 0;
        if (b.segment != e.segment || b.indexEntry != e.indexEntry)
            bits |= kOtherSegment;
        else if (b.fileOffset != e.fileOffset)
            bits |= kOtherFileAt;
        if (b.gridIndex != e.gridIndex) bits |= kOtherGridAt;
        if (b.sampleCount != e.sampleCount) bits |= kOtherCount;
        if (b.startTime != e.startTime) bits |= kOtherTime;
        if (b.flags != e.flags) bits |= kOtherFlags;
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

std::string absolute(const std::string& path)
{
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? path : p.string();
}

} // namespace

std::string defaultSnapshotDirectory()
{
    if (std::getenv("LONGVIEW_NO_SNAPSHOT")) return {};
    if (const char* d = std::getenv("LONGVIEW_SNAPSHOT_DIR"); d && *d) return d;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/longview/snapshots";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/longview/snapshots";
    return {};
}

std::string snapshotFile(const std::string& directory, const std::string& sessionPath)
{
    const std::string key = absolute(sessionPath);
    const PasswordBytes hash = sha256First16(std::span(reinterpret_cast<const std::uint8_t*>(key.data()), key.size()));
    static const char* hex = "0123456789abcdef";
    std::string name;
    for (std::uint8_t byte : hash) name += hex[byte >> 4], name += hex[byte & 15];
    return directory + "/" + name + ".lvsnap";
}

namespace {

constexpr const char* kArchive = "<archive>";

core::Result<io::TreeEntry> statFile(const std::string& path)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    const auto time = fs::last_write_time(path, ec);
    if (ec) return makeError(ErrorCode::Io, "cannot stat: " + ec.message(), path);
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
    return io::TreeEntry{absolute(path), false, size, static_cast<std::int64_t>(ns)};
}

std::string parentOf(const std::string& treePath)
{
    const auto slash = treePath.rfind('/');
    return slash == std::string::npos ? std::string() : treePath.substr(0, slash);
}

// The listings now of the folders `f` names (or the archive's stat), for comparison with `f`.
bool unchanged(const io::FileTree& tree, const Fingerprint& f)
{
    for (const auto& l : f.listings) {
        if (l.dir == kArchive) {
            auto now = statFile(tree.rootPath());
            if (!now || !sameEntries({*now}, l.entries)) return false;
            continue;
        }
        auto now = tree.list(l.dir);
        if (!now || !sameEntries(*now, l.entries)) return false;
    }
    return !f.listings.empty();
}

} // namespace

core::Result<Fingerprint> takeFingerprint(const SessionLayout& layout)
{
    Fingerprint f;
    std::error_code ec;
    if (fs::is_regular_file(layout.tree->rootPath(), ec)) {
        auto archive = statFile(layout.tree->rootPath());
        if (!archive) return archive.error();
        f.listings.push_back({kArchive, {*archive}});
        return f;
    }
    std::vector<std::string> dirs{layout.sessionDir};
    for (const ChannelFiles& c : layout.channels) {
        dirs.push_back(c.dir);
        if (!c.segments.empty()) dirs.push_back(parentOf(c.segments.back().base));
    }
    for (const std::string& dir : dirs) {
        auto entries = layout.tree->list(dir);
        if (!entries) return entries.error();
        f.listings.push_back({dir, std::move(*entries)});
    }
    return f;
}

core::Status saveSnapshot(const MefRecording& r, const Fingerprint& fingerprint, const std::string& directory)
{
    if (r.accessLevel() != 0) return makeError(ErrorCode::Unsupported, "sessions with passwords are not snapshotted");
    Out o;
    o.text(absolute(r.m_info.path));
    o.text(r.m_tree->rootPath());
    putFingerprint(o, fingerprint);
    const core::RecordingInfo& info = r.m_info;
    o.text(info.format), o.text(info.path), o.put(info.start), o.put(info.end), o.put<std::uint8_t>(info.timesKnown);
    o.put<std::uint64_t>(info.channels.size());
    for (const core::ChannelInfo& c : info.channels) putChannel(o, c);
    o.put<std::uint64_t>(info.annotations.size());
    for (const core::Annotation& a : info.annotations) putAnnotation(o, a);
    o.put<std::uint64_t>(info.warnings.size());
    for (const std::string& w : info.warnings) o.text(w);
    for (const ChannelDetail& d : r.m_details) {
        o.put<std::uint64_t>(d.dataPaths.size());
        for (const std::string& p : d.dataPaths) o.text(p);
        putBlocks(o, d.blocks, r.m_info.channels[&d - r.m_details.data()].fs);
    }
    std::vector<std::uint8_t> file(sizeof kMagic + 4 + ZSTD_compressBound(o.b.size()));
    std::memcpy(file.data(), kMagic, sizeof kMagic);
    core::le::store<std::uint32_t>(&file[sizeof kMagic], kVersion);
    const std::size_t packed = ZSTD_compress(file.data() + 12, file.size() - 12, o.b.data(), o.b.size(), 3);
    if (ZSTD_isError(packed)) return makeError(ErrorCode::Io, "cannot compress the snapshot");
    file.resize(12 + packed);
    std::error_code ec;
    fs::create_directories(directory, ec);
    return io::replaceFile(snapshotFile(directory, r.m_info.path), file, false);
}

core::Result<std::unique_ptr<MefRecording>> loadSnapshot(const std::string& sessionPath, const std::string& directory)
{
    const std::string file = snapshotFile(directory, sessionPath);
    auto bytes = io::readFile(file);
    if (!bytes) return bytes.error();
    const auto damaged = [&] { return makeError(ErrorCode::Corrupt, "damaged or old snapshot", file); };
    if (bytes->size() < 12 || std::memcmp(bytes->data(), kMagic, sizeof kMagic) != 0 ||
        core::le::load<std::uint32_t>(bytes->data() + 8) != kVersion)
        return damaged();
    const unsigned long long size = ZSTD_getFrameContentSize(bytes->data() + 12, bytes->size() - 12);
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (1ull << 31)) return damaged();
    std::vector<std::uint8_t> payload(size);
    if (ZSTD_decompress(payload.data(), payload.size(), bytes->data() + 12, bytes->size() - 12) != size)
        return damaged();
    In in{payload};
    if (in.text() != absolute(sessionPath)) return damaged();
    const std::string root = in.text();
    const Fingerprint fingerprint = getFingerprint(in);
    if (!in.ok) return damaged();
    std::error_code ec;
    const bool archive = fs::is_regular_file(root, ec);
    auto tree = archive ? io::openTarTree(root) : io::openDirectoryTree(root);
    if (!tree) return tree.error();
    if (!unchanged(**tree, fingerprint)) return makeError(ErrorCode::NotFound, "the session changed", file);
    auto r = std::unique_ptr<MefRecording>(new MefRecording());
    core::RecordingInfo& info = r->m_info;
    info.format = in.text();
    in.text(); // the path as first given; this open's path is kept instead
    info.path = sessionPath;
    info.start = in.get<std::int64_t>(), info.end = in.get<std::int64_t>(), info.timesKnown = in.get<std::uint8_t>();
    info.channels.resize(in.count(80));
    for (core::ChannelInfo& c : info.channels) c = getChannel(in);
    info.annotations.resize(in.count(29));
    for (core::Annotation& a : info.annotations) a = getAnnotation(in);
    info.warnings.resize(in.count(4));
    for (std::string& w : info.warnings) w = in.text();
    for (std::size_t c = 0; c < info.channels.size() && in.ok; ++c) {
        ChannelDetail& d = r->m_details.emplace_back();
        d.dataPaths.resize(in.count(4));
        for (std::string& p : d.dataPaths) {
            p = in.text();
            if (archive) { // members are byte ranges of the one archive file
                auto source = (*tree)->open(p);
                if (!source) return source.error();
                d.dataFiles.push_back(*source);
            } else {
                d.dataFiles.push_back(io::lazyFile((*tree)->displayPath(p))); // opened when first read
            }
        }
        d.blocks = getBlocks(in, info.channels[c].fs);
    }
    if (!in.ok || in.at != payload.size()) return damaged();
    r->m_tree = *tree;
    r->makeSpans();
    return r;
}

} // namespace lv::formats::mef3
