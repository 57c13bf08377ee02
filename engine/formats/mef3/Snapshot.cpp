// Snapshot files: "LVSNAP01", version, checksum, frame table, a zstd frame for the description, two per channel.
#include "formats/mef3/Snapshot.h"

#include "formats/mef3/BlockMap.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Password.h"
#include "formats/mef3/RedBlock.h"
#include "formats/mef3/SnapshotFormat.h"
#include "formats/mef3/UniversalHeader.h"
#include "io/WritableFile.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <zstd.h>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;
using namespace snapshot; // the field codecs (In and Out are core::ByteReader / ByteWriter)
namespace fs = std::filesystem;

namespace {

// File layout, little-endian: magic, version, checksum of everything after it, channel count, the header
// frame's size, each channel frame's size, each channel's files frame's size; then the frames in that order.
constexpr char kMagic[8] = {'L', 'V', 'S', 'N', 'A', 'P', '0', '1'};
constexpr std::uint32_t kVersion = snapshot::kSnapshotVersion;
constexpr std::size_t kChecksumAt = 12, kCountAt = 20, kTableAt = 24;
constexpr std::uint64_t kMaxFrame = 1ull << 31;

std::string absolute(const std::string& path)
{
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? path : p.string();
}

// The folder the session's tree paths are relative to, as discoverSession makes it.
std::string treeRootOf(std::string path, bool archive)
{
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    if (archive || fs::path(path).extension() != ".timd") return path;
    const fs::path p(path);
    return p.has_parent_path() ? p.parent_path().string() : ".";
}

struct DCtxFree {
    void operator()(ZSTD_DCtx* c) const { ZSTD_freeDCtx(c); }
};

core::Result<std::vector<std::uint8_t>> decompress(const SnapshotFrames& f, const SnapshotFrames::Frame& frame)
{
    thread_local std::unique_ptr<ZSTD_DCtx, DCtxFree> context(ZSTD_createDCtx());
    std::vector<std::uint8_t> out(frame.contentSize);
    const std::size_t got =
        ZSTD_decompressDCtx(context.get(), out.data(), out.size(), f.bytes.data() + frame.offset, frame.size);
    if (ZSTD_isError(got) || got != out.size())
        return makeError(ErrorCode::Corrupt, "snapshot frame does not decompress", f.file, frame.offset);
    return out;
}

core::Result<std::vector<std::uint8_t>> compress(std::span<const std::uint8_t> in)
{
    std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> context(ZSTD_createCCtx(), ZSTD_freeCCtx);
    ZSTD_CCtx_setParameter(context.get(), ZSTD_c_compressionLevel, 3);
    ZSTD_CCtx_setParameter(context.get(), ZSTD_c_checksumFlag, 1); // checked again by every decompression
    std::vector<std::uint8_t> out(ZSTD_compressBound(in.size()));
    const std::size_t packed = ZSTD_compress2(context.get(), out.data(), out.size(), in.data(), in.size());
    if (ZSTD_isError(packed)) return makeError(ErrorCode::Io, "cannot compress the snapshot");
    out.resize(packed);
    return out;
}

// Magic, version, checksum and frame table; every frame's header gives a size that fits. After this the frames
// are the bytes that were written, so decompressing one later cannot fail.
core::Result<SnapshotFrames::Frame> checkFile(SnapshotFrames& f)
{
    const auto damaged = [&] { return makeError(ErrorCode::Corrupt, "damaged or old snapshot", f.file); };
    const std::vector<std::uint8_t>& b = f.bytes;
    if (b.size() < kTableAt + 8 || std::memcmp(b.data(), kMagic, sizeof kMagic) != 0 ||
        core::le::load<std::uint32_t>(&b[8]) != kVersion)
        return damaged();
    if (core::le::load<std::uint64_t>(&b[kChecksumAt]) != snapshot::checksum(std::span(b).subspan(kCountAt)))
        return damaged();
    const std::uint64_t channels = core::le::load<std::uint32_t>(&b[kCountAt]);
    std::size_t at = kTableAt + 8 * (2 * channels + 1);
    if (at > b.size()) return damaged();
    std::vector<SnapshotFrames::Frame> frames(2 * channels + 1);
    for (std::size_t i = 0; i < frames.size(); ++i) {
        SnapshotFrames::Frame& frame = frames[i];
        frame.offset = at;
        frame.size = core::le::load<std::uint64_t>(&b[kTableAt + 8 * i]);
        if (frame.size > b.size() - at) return damaged();
        at += frame.size;
        const unsigned long long content = ZSTD_getFrameContentSize(b.data() + frame.offset, frame.size);
        if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN || content > kMaxFrame ||
            ZSTD_findFrameCompressedSize(b.data() + frame.offset, frame.size) != frame.size)
            return damaged();
        frame.contentSize = content;
    }
    if (at != b.size()) return damaged();
    f.channels.assign(frames.begin() + 1, frames.begin() + 1 + static_cast<std::ptrdiff_t>(channels));
    f.files.assign(frames.begin() + 1 + static_cast<std::ptrdiff_t>(channels), frames.end());
    return frames.front();
}

void putHeader(Out& o, const core::RecordingInfo& info, const OpenWarnings& w, const Fingerprint& fingerprint,
               std::optional<core::Uutc> timeOffset, core::Uutc timeOrigin)
{
    o.text(absolute(info.path));
    putFingerprint(o, fingerprint);
    o.text(info.format), o.put(info.start), o.put(info.end), o.put<std::uint8_t>(info.timesKnown);
    o.put<std::uint64_t>(info.channels.size());
    for (const core::ChannelInfo& c : info.channels) snapshot::putChannel(o, c);
    o.put<std::uint64_t>(info.annotations.size());
    for (const core::Annotation& a : info.annotations) snapshot::putAnnotation(o, a);
    snapshot::putStrings(o, w.layout);
    for (const auto& list : w.channels) snapshot::putStrings(o, list);
    snapshot::putStrings(o, w.sessionRecords);
    for (const auto& list : w.channelRecords) snapshot::putStrings(o, list);
    snapshot::putStrings(o, w.times);
    snapshot::putStrings(o, w.checks);
    o.put<std::uint8_t>(timeOffset.has_value()), o.put(timeOffset.value_or(0)), o.put(timeOrigin);
    snapshot::putStrings(o, {info.subject.id, info.subject.name, info.subject.sex, info.subject.birthdate,
                             info.site.adminCode, info.site.technician, info.site.equipment, info.site.location,
                             info.description});
}

// The description; false when it does not decode whole or disagrees with the frame table.
bool getHeader(In& in, core::RecordingInfo& info, OpenWarnings& w, std::optional<core::Uutc>& timeOffset,
               core::Uutc& timeOrigin, std::size_t channels)
{
    info.format = in.text();
    info.start = in.get<std::int64_t>(), info.end = in.get<std::int64_t>(), info.timesKnown = in.get<std::uint8_t>();
    info.channels.resize(in.count(80));
    if (info.channels.size() != channels) return false;
    for (core::ChannelInfo& c : info.channels) c = snapshot::getChannel(in);
    info.annotations.resize(in.count(29));
    for (core::Annotation& a : info.annotations) a = snapshot::getAnnotation(in);
    w.layout = snapshot::getStrings(in);
    w.channels.resize(channels);
    for (auto& list : w.channels) list = snapshot::getStrings(in);
    w.sessionRecords = snapshot::getStrings(in);
    w.channelRecords.resize(channels);
    for (auto& list : w.channelRecords) list = snapshot::getStrings(in);
    w.times = snapshot::getStrings(in);
    w.checks = snapshot::getStrings(in);
    const bool hasOffset = in.get<std::uint8_t>();
    const auto offset = in.get<std::int64_t>();
    if (hasOffset) timeOffset = offset;
    timeOrigin = in.get<std::int64_t>();
    const std::vector<std::string> who = snapshot::getStrings(in);
    if (who.size() != 9) return false;
    info.subject = {who[0], who[1], who[2], who[3]};
    info.site = {who[4], who[5], who[6], who[7]};
    info.description = who[8];
    info.warnings = w.all();
    return in.done();
}

// Where each data file lies in the archive the session was read from; empty for a directory, or if one is unknown.
std::vector<io::ByteRange> archiveRanges(const io::FileTree* tree, const std::vector<std::string>& dataPaths)
{
    std::vector<io::ByteRange> ranges;
    for (const std::string& path : dataPaths) {
        const auto range = tree ? tree->archiveRange(path) : std::nullopt;
        if (!range) return {};
        ranges.push_back(*range);
    }
    return ranges;
}

} // namespace

namespace snapshot {

core::Result<ChannelFrame> readChannelFrame(const SnapshotFrames& frames, std::size_t channel, double fs)
{
    const SnapshotFrames::Frame& frame = frames.channels.at(channel);
    auto bytes = decompress(frames, frame);
    if (!bytes) return bytes.error();
    In in{*bytes};
    ChannelFrame out;
    out.dataPaths = getStrings(in);
    out.blocks = getBlocks(in, fs);
    out.archiveRanges = getByteRanges(in);
    bool ok = in.done() && (out.archiveRanges.empty() || out.archiveRanges.size() == out.dataPaths.size());
    for (const BlockRef& b : out.blocks) // a block as MefLoad admits one from an index (found by fuzz_snapshot)
        ok = ok && b.segment < out.dataPaths.size() && b.blockBytes >= kRedHeaderBytes && b.sampleCount > 0 &&
             b.sampleCount <= kMaxBlockSamples && b.fileOffset >= static_cast<std::int64_t>(kUniversalHeaderBytes);
    if (!ok)
        return makeError(ErrorCode::Corrupt, "snapshot channel " + std::to_string(channel) + " does not decode",
                         frames.file, frame.offset);
    return out;
}

core::Result<FilesFrame> readFilesFrame(const SnapshotFrames& frames, std::size_t channel)
{
    const SnapshotFrames::Frame& frame = frames.files.at(channel);
    auto bytes = decompress(frames, frame);
    if (!bytes) return bytes.error();
    In in{*bytes};
    FilesFrame out;
    out.dataPaths = getStrings(in);
    out.stamps = getStamps(in);
    if (!in.done() || (!out.stamps.empty() && out.stamps.size() != out.dataPaths.size()))
        return makeError(ErrorCode::Corrupt, "snapshot files of channel " + std::to_string(channel) + " do not decode",
                         frames.file, frame.offset);
    return out;
}

} // namespace snapshot

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

core::Status saveSnapshot(const MefRecording& r, const Fingerprint& fingerprint, const std::string& directory)
{
    if (r.accessLevel() != 0) return makeError(ErrorCode::Unsupported, "sessions with passwords are not snapshotted");
    Out header;
    putHeader(header, r.m_info, r.m_openWarnings, fingerprint, r.m_timeOffset, r.m_timeOrigin);
    std::vector<std::vector<std::uint8_t>> frames, files;
    auto packed = compress(header.b);
    if (!packed) return packed.error();
    frames.push_back(std::move(*packed));
    const auto copy = [&r](const SnapshotFrames::Frame& f) {
        return std::vector<std::uint8_t>(r.m_frames->bytes.begin() + static_cast<std::ptrdiff_t>(f.offset),
                                         r.m_frames->bytes.begin() + static_cast<std::ptrdiff_t>(f.offset + f.size));
    };
    for (std::size_t c = 0; c < r.m_info.channels.size(); ++c) {
        if (r.m_inFrame[c]) { // as read: its bytes were checked when the snapshot was
            frames.push_back(copy(r.m_frames->channels[c]));
            files.push_back(copy(r.m_frames->files[c]));
            continue;
        }
        Out stamps;
        snapshot::putStrings(stamps, r.m_details[c].dataPaths);
        snapshot::putStamps(stamps, r.m_details[c].stamps);
        auto packedStamps = compress(stamps.b);
        if (!packedStamps) return packedStamps.error();
        files.push_back(std::move(*packedStamps));
        Out o;
        snapshot::putStrings(o, r.m_details[c].dataPaths);
        snapshot::putBlocks(o, r.m_details[c].blocks, r.m_info.channels[c].fs);
        snapshot::putByteRanges(o, archiveRanges(r.m_tree.get(), r.m_details[c].dataPaths));
        auto channel = compress(o.b);
        if (!channel) return channel.error();
        frames.push_back(std::move(*channel));
    }
    Out file;
    file.b.assign(kMagic, kMagic + sizeof kMagic);
    file.put(kVersion), file.put<std::uint64_t>(0),
        file.put<std::uint32_t>(static_cast<std::uint32_t>(frames.size() - 1));
    frames.insert(frames.end(), std::make_move_iterator(files.begin()), std::make_move_iterator(files.end()));
    for (const auto& f : frames) file.put<std::uint64_t>(f.size());
    for (const auto& f : frames) file.b.insert(file.b.end(), f.begin(), f.end());
    core::le::store<std::uint64_t>(&file.b[kChecksumAt], snapshot::checksum(std::span(file.b).subspan(kCountAt)));
    std::error_code ec;
    fs::create_directories(directory, ec);
    return io::replaceFile(snapshotFile(directory, r.m_info.path), file.b, false);
}

core::Result<std::unique_ptr<MefRecording>> readSnapshot(const std::string& sessionPath, const std::string& directory)
{
    const std::string file = snapshotFile(directory, sessionPath);
    auto bytes = io::readFile(file);
    if (!bytes) return bytes.error();
    return parseSnapshot(std::move(*bytes), file, &sessionPath);
}

core::Result<std::unique_ptr<MefRecording>> parseSnapshot(std::vector<std::uint8_t> bytes, const std::string& file,
                                                          const std::string* sessionPathPtr)
{
    auto frames = std::make_shared<SnapshotFrames>();
    frames->file = file;
    frames->bytes = std::move(bytes);
    auto headerFrame = checkFile(*frames);
    if (!headerFrame) return headerFrame.error();
    auto header = decompress(*frames, *headerFrame);
    if (!header) return header.error();
    auto r = std::unique_ptr<MefRecording>(new MefRecording());
    In in{*header};
    const std::string storedPath = in.text();
    const std::string sessionPath = sessionPathPtr ? *sessionPathPtr : storedPath;
    const bool samePath = !sessionPathPtr || storedPath == absolute(sessionPath);
    Fingerprint fingerprint = snapshot::getFingerprint(in);
    const std::size_t channels = frames->channels.size();
    if (!samePath || !in.ok || (!fingerprint.archive && fingerprint.channels.size() != channels) ||
        !getHeader(in, r->m_info, r->m_openWarnings, r->m_timeOffset, r->m_timeOrigin, channels))
        return makeError(ErrorCode::Corrupt, "damaged or old snapshot", frames->file);
    r->m_info.path = sessionPath; // this open's path, as a full open would give it
    fingerprint.root = treeRootOf(sessionPath, fingerprint.archive);
    r->m_treeRoot = fingerprint.root;
    r->m_archive = fingerprint.archive;
    if (r->m_archive) r->m_archiveFile = io::lazyFile(r->m_treeRoot);
    r->m_fingerprint = std::move(fingerprint);
    r->initChannels(channels);
    std::fill(r->m_inFrame.begin(), r->m_inFrame.end(), 1);
    r->m_frames = std::move(frames);
    return r;
}

core::Result<std::unique_ptr<MefRecording>> loadSnapshot(const std::string& sessionPath, const std::string& directory)
{
    auto r = readSnapshot(sessionPath, directory);
    if (!r) return r.error();
    if (!(*r)->checkSnapshot().fresh())
        return makeError(ErrorCode::NotFound, "the session changed", snapshotFile(directory, sessionPath));
    return r;
}

} // namespace lv::formats::mef3
