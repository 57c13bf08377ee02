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
constexpr std::uint32_t kVersion = 1; // bump whenever the layout below or what the reader computes changes

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

void putBlock(Out& o, const BlockRef& b)
{
    o.put(b.segment), o.put(b.indexEntry), o.put(b.fileOffset), o.put(b.blockBytes), o.put(b.sampleCount);
    o.put(b.startTime), o.put(b.gridIndex), o.put(b.minimum), o.put(b.maximum), o.put(b.flags);
}

BlockRef getBlock(In& in)
{
    BlockRef b;
    b.segment = in.get<std::uint32_t>(), b.indexEntry = in.get<std::uint32_t>(), b.fileOffset = in.get<std::int64_t>();
    b.blockBytes = in.get<std::uint32_t>(), b.sampleCount = in.get<std::uint32_t>();
    b.startTime = in.get<std::int64_t>(), b.gridIndex = in.get<std::int64_t>();
    b.minimum = in.get<std::int32_t>(), b.maximum = in.get<std::int32_t>(), b.flags = in.get<std::uint8_t>();
    return b;
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
        o.put<std::uint64_t>(d.blocks.size());
        for (const BlockRef& b : d.blocks) putBlock(o, b);
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
    auto tree = fs::is_regular_file(root, ec) ? io::openTarTree(root) : io::openDirectoryTree(root);
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
    info.annotations.resize(in.count(30));
    for (core::Annotation& a : info.annotations) a = getAnnotation(in);
    info.warnings.resize(in.count(4));
    for (std::string& w : info.warnings) w = in.text();
    for (std::size_t c = 0; c < info.channels.size() && in.ok; ++c) {
        ChannelDetail& d = r->m_details.emplace_back();
        d.dataPaths.resize(in.count(4));
        for (std::string& p : d.dataPaths) {
            p = in.text();
            auto source = (*tree)->open(p);
            if (!source) return source.error();
            d.dataFiles.push_back(*source);
        }
        d.blocks.resize(in.count(49));
        for (BlockRef& b : d.blocks) b = getBlock(in);
    }
    if (!in.ok || in.at != payload.size()) return damaged();
    r->m_tree = *tree;
    r->makeSpans();
    return r;
}

} // namespace lv::formats::mef3
