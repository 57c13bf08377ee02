// Fingerprints: the session folder's listing, per channel its folder's times and entry names and its last segment's
// listing; compared channel by channel, names only where the folder's times cannot vouch for them.
#include "formats/mef3/Fingerprint.h"

#include "formats/mef3/SessionLayout.h"
#include "io/FileSystem.h"
#include "io/Path.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string_view>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;
namespace fs = std::filesystem;

namespace {

// One stat (io::statPath): kind, size, times in ns, file id.
core::Result<io::FileStatus> statOf(const std::string& path)
{
    io::FileStatus st;
    if (io::SystemError e = io::statPath(io::toPath(path), st); !e.ok())
        return makeError(ErrorCode::Io, "cannot stat: " + e.text, path);
    return st;
}

core::Result<io::TreeEntry> statEntry(const std::string& path, std::string name)
{
    auto st = statOf(path);
    if (!st) return st.error();
    return io::TreeEntry{std::move(name), st->kind == io::FileStatus::Kind::Directory, st->size, st->mtimeNs};
}

FileStamp stampOf(const io::FileStatus& st) { return {st.size, st.mtimeNs, st.ctimeNs, st.fileId}; }

// Calls visit(name, isDirectory) for each entry of folder `path` but "." and ".." (io::forEachEntry: one pass,
// kinds from the listing itself) until it fails.
template <typename Visit>
core::Status forEachEntry(const std::string& path, Visit&& visit)
{
    core::Status status;
    const io::SystemError e = io::forEachEntry(io::toPath(path), [&](std::string_view name, bool isDirectory) {
        status = visit(name, isDirectory);
        return status.ok();
    });
    if (status.ok() && !e.ok()) return makeError(ErrorCode::Io, "cannot list directory: " + e.text, path);
    return status;
}

// The entries of folder `path` sorted by name; files (and folders when `statFolders`) with size and time.
core::Result<std::vector<io::TreeEntry>> listFolder(const std::string& path, bool statFolders)
{
    std::vector<io::TreeEntry> entries;
    LV_TRY(forEachEntry(path, [&](std::string_view name, bool isDirectory) -> core::Status {
        io::TreeEntry e{std::string(name), isDirectory, 0, 0};
        if (!isDirectory || statFolders) {
            auto stamped = statEntry(path + "/" + e.name, e.name);
            if (!stamped) return stamped.error();
            e = std::move(*stamped);
        }
        entries.push_back(std::move(e));
        return {};
    }));
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return entries;
}

std::int64_t wallClockNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// FNV-1a of a name and its kind, then mixed, so that a sum over entries is a good order-independent hash.
std::uint64_t entryHash(std::string_view name, bool isDirectory)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char c : name) h = (h ^ static_cast<std::uint8_t>(c)) * 0x100000001b3ull;
    h ^= isDirectory ? 0x9e3779b97f4a7c15ull : 0;
    h ^= h >> 33, h *= 0xff51afd7ed558ccdull, h ^= h >> 33, h *= 0xc4ceb9fe1a85ec53ull, h ^= h >> 33;
    return h;
}

bool sameEntry(const io::TreeEntry& x, const io::TreeEntry& y)
{
    return x.name == y.name && x.isDirectory == y.isDirectory && x.mtimeNs == y.mtimeNs && x.size == y.size;
}

bool sameEntries(const std::vector<io::TreeEntry>& a, const std::vector<io::TreeEntry>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), sameEntry);
}

bool sameStamp(const ChannelStamp& a, const ChannelStamp& b)
{
    return a.dir == b.dir && a.mtimeNs == b.mtimeNs && a.ctimeNs == b.ctimeNs && a.entries == b.entries &&
           a.namesHash == b.namesHash && sameEntries(a.files, b.files) && a.lastSegmentDir == b.lastSegmentDir &&
           sameEntries(a.lastSegment, b.lastSegment);
}

core::Result<ChannelStamp> stampChannel(const std::string& root, const std::string& dir)
{
    ChannelStamp c;
    c.dir = dir;
    c.stampedAtNs = wallClockNs();
    const std::string path = io::joinPath(root, dir);
    auto st = statOf(path);
    if (!st) return st.error();
    c.mtimeNs = st->mtimeNs;
    c.ctimeNs = st->ctimeNs;
    std::string lastName;
    LV_TRY(forEachEntry(path, [&](std::string_view name, bool isDirectory) -> core::Status {
        ++c.entries;
        c.namesHash += entryHash(name, isDirectory);
        if (isDirectory && name.ends_with(".segd") && name > lastName) lastName.assign(name);
        if (isDirectory) return {};
        auto file = statEntry(path + "/" + std::string(name), std::string(name));
        if (!file) return file.error();
        c.files.push_back(std::move(*file));
        return {};
    }));
    std::sort(c.files.begin(), c.files.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    if (lastName.empty()) return c;
    c.lastSegmentDir = io::joinPath(dir, lastName);
    auto segment = listFolder(io::joinPath(root, c.lastSegmentDir), true);
    if (!segment) return segment.error();
    c.lastSegment = std::move(*segment);
    return c;
}

// Channel `then` now, and whether it changed. While its folder's times vouch for its entries (see kSettledFolderNs)
// only its files and last segment are looked at; otherwise the folder is listed again.
core::Result<std::pair<bool, ChannelStamp>> recheckChannel(const std::string& root, const ChannelStamp& then)
{
    const std::string path = io::joinPath(root, then.dir);
    io::FileStatus st;
    const bool settled = io::statPath(io::toPath(path), st).ok() && st.mtimeNs == then.mtimeNs &&
                         st.ctimeNs == then.ctimeNs && then.ctimeNs <= then.stampedAtNs - kSettledFolderNs;
    if (settled) {
        ChannelStamp now = then;
        bool ok = true;
        for (io::TreeEntry& file : now.files) {
            auto stamped = statEntry(path + "/" + file.name, file.name);
            if (stamped) file = std::move(*stamped);
            ok = ok && stamped.ok();
        }
        if (!then.lastSegmentDir.empty()) {
            auto segment = listFolder(io::joinPath(root, then.lastSegmentDir), true);
            if (segment) now.lastSegment = std::move(*segment);
            ok = ok && segment.ok();
        }
        if (ok) return std::pair{!sameStamp(now, then), std::move(now)};
    }
    auto now = stampChannel(root, then.dir);
    if (!now) return now.error();
    return std::pair{!sameStamp(*now, then), std::move(*now)};
}

core::Result<Fingerprint> takeFingerprintOf(const std::string& root, bool archive, const std::string& sessionDir,
                                            const std::vector<std::string>& channelDirs)
{
    Fingerprint f;
    f.root = root;
    f.archive = archive;
    f.sessionDir = sessionDir;
    if (archive) {
        auto file = statEntry(root, {});
        if (!file) return file.error();
        f.archiveFile = std::move(*file);
        auto stamp = stampFile(root);
        if (!stamp) return stamp.error();
        f.archiveStamp = *stamp;
        return f;
    }
    auto session = listFolder(io::joinPath(root, sessionDir), false);
    if (!session) return session.error();
    f.session = std::move(*session);
    for (const std::string& dir : channelDirs) {
        auto channel = stampChannel(root, dir);
        if (!channel) return channel.error();
        f.channels.push_back(std::move(*channel));
    }
    return f;
}

} // namespace

core::Result<FileStamp> stampFile(const std::string& path)
{
    auto st = statOf(path);
    if (!st) return st.error();
    return stampOf(*st);
}

std::vector<std::string> segmentStampPaths(const std::string& dataPath, bool withRecords)
{
    const std::string base = dataPath.substr(0, dataPath.rfind('.'));
    const auto slash = base.rfind('/');
    std::vector<std::string> paths{slash == std::string::npos ? std::string() : base.substr(0, slash), base + ".tmet",
                                   base + ".tidx", dataPath};
    if (withRecords) paths.push_back(base + ".rdat"), paths.push_back(base + ".ridx");
    return paths;
}

core::Result<std::vector<SegmentStamp>> stampSegments(const std::string& root, const ChannelFiles& files)
{
    std::vector<SegmentStamp> stamps;
    stamps.reserve(files.segments.size());
    for (const SegmentFiles& segment : files.segments) {
        SegmentStamp stamp;
        for (const std::string& path : segmentStampPaths(segment.base + ".tdat", !segment.recordsBase.empty())) {
            auto file = stampFile(io::joinPath(root, path));
            if (!file) return file.error();
            stamp.push_back(*file);
        }
        stamps.push_back(std::move(stamp));
    }
    return stamps;
}

bool segmentUnchanged(const std::string& root, const std::string& dataPath, const SegmentStamp& stamp)
{
    if (stamp.size() != 4 && stamp.size() != 6) return false;
    const std::vector<std::string> paths = segmentStampPaths(dataPath, stamp.size() == 6);
    for (std::size_t i = 0; i < paths.size(); ++i) {
        auto now = stampFile(io::joinPath(root, paths[i]));
        if (!now || !(*now == stamp[i])) return false;
    }
    return true;
}

core::Result<Fingerprint> takeFingerprint(const SessionLayout& layout)
{
    const std::string& root = layout.tree->rootPath();
    std::error_code ec;
    std::vector<std::string> dirs;
    for (const ChannelFiles& c : layout.channels) dirs.push_back(c.dir);
    return takeFingerprintOf(root, fs::is_regular_file(root, ec), layout.sessionDir, dirs);
}

Recheck recheckFingerprint(const Fingerprint& then)
{
    Recheck r;
    r.check.state = SnapshotCheck::State::Stale;
    r.check.sessionChanged = true;
    if (then.archive) {
        auto file = statEntry(then.root, {});
        auto stamp = stampFile(then.root);
        if (!file || !sameEntry(*file, then.archiveFile) || !stamp || !(*stamp == then.archiveStamp)) return r;
        r.now = then;
    } else {
        auto session = listFolder(io::joinPath(then.root, then.sessionDir), false);
        if (!session || !sameEntries(*session, then.session)) return r;
        r.now = {then.root, false, {}, {}, then.sessionDir, std::move(*session), {}};
        for (std::size_t c = 0; c < then.channels.size(); ++c) {
            auto channel = recheckChannel(then.root, then.channels[c]);
            if (!channel) return r; // the folder went away under us: the next listing will show it
            if (channel->first) r.check.changedChannels.push_back(c);
            r.now.channels.push_back(std::move(channel->second));
        }
    }
    r.check.sessionChanged = false;
    if (r.check.changedChannels.empty()) r.check.state = SnapshotCheck::State::Fresh;
    return r;
}

} // namespace lv::formats::mef3
