// The opened MEF 3.0 recording: its channels built on first use, blocks checked against the index, warnings kept.
#include "formats/mef3/MefRecording.h"

#include "core/TimeFormat.h"
#include "formats/mef3/RedBlock.h"
#include "formats/mef3/SnapshotFormat.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <limits>
#include <optional>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

namespace {

std::vector<core::BlockSpan> spansOf(const std::vector<BlockRef>& blocks)
{
    std::vector<core::BlockSpan> spans;
    spans.reserve(blocks.size());
    for (const BlockRef& b : blocks)
        spans.push_back({b.gridIndex, b.sampleCount, b.minimum, b.maximum, b.minimum != INT32_MIN});
    return spans;
}

} // namespace

MefRecording::~MefRecording() = default;

std::vector<std::string> OpenWarnings::all() const
{
    std::vector<std::string> out = layout;
    for (const auto& list : channels) out.insert(out.end(), list.begin(), list.end());
    out.insert(out.end(), sessionRecords.begin(), sessionRecords.end());
    for (const auto& list : channelRecords) out.insert(out.end(), list.begin(), list.end());
    out.insert(out.end(), times.begin(), times.end());
    out.insert(out.end(), checks.begin(), checks.end());
    return out;
}

void MefRecording::initChannels(std::size_t count)
{
    m_details.assign(count, {});
    m_spans.assign(count, {});
    m_spansBuilt = std::make_unique<std::atomic<std::uint8_t>[]>(count);
    m_channelErrors.assign(count, std::nullopt);
    m_channelOnce = std::make_unique<std::once_flag[]>(count);
    m_inFrame.assign(count, 0);
    m_readFromFiles.assign(count, 0);
    m_segmentChecked.clear();
    m_segmentChecked.resize(count);
}

// A channel read from the session's files: nothing left to build.
void MefRecording::setChannel(std::size_t channel, ChannelDetail detail)
{
    m_details[channel] = std::move(detail);
    m_spans[channel] = {};
    m_spansBuilt[channel].store(0, std::memory_order_release);
    m_inFrame[channel] = 0;
    m_readFromFiles[channel] = 1;
    if (channel < m_segmentChecked.size()) m_segmentChecked[channel].reset();
}

core::Status MefRecording::ensureChannel(std::size_t channel) const
{
    if (channel >= m_details.size())
        return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(channel));
    std::call_once(m_channelOnce[channel], [this, channel] { buildChannel(channel); });
    if (m_channelErrors[channel]) return *m_channelErrors[channel];
    return {};
}

// A channel's blocks and data files from its snapshot frame; on failure it stays empty and keeps the error.
void MefRecording::buildChannel(std::size_t channel) const
{
    if (!m_inFrame[channel]) return;
    auto frame = snapshot::readChannelFrame(*m_frames, channel, m_info.channels[channel].fs);
    auto files =
        frame ? snapshot::readFilesFrame(*m_frames, channel) : core::Result<snapshot::FilesFrame>(frame.error());
    if (frame && files && files->dataPaths != frame->dataPaths)
        files = makeError(ErrorCode::Corrupt, "snapshot channel " + std::to_string(channel) + " does not decode",
                          m_frames->file);
    if (!frame || !files) { // the snapshot is removed: the next open reads the session's files and writes a new one
        m_channelErrors[channel] = frame ? files.error() : frame.error();
        std::error_code ec;
        std::filesystem::remove(m_frames->file, ec);
        return;
    }
    ChannelDetail detail;
    detail.stamps = std::move(files->stamps);
    m_segmentChecked[channel] = std::make_unique<std::atomic<std::uint8_t>[]>(frame->dataPaths.size());
    for (std::size_t i = 0; i < frame->dataPaths.size(); ++i) {
        const std::string& path = frame->dataPaths[i];
        if (!m_archive) { // opened on first read: a channel of many segments costs no open until read
            detail.dataFiles.push_back(io::lazyFile(io::joinPath(m_treeRoot, path)));
            continue;
        }
        if (!frame->archiveRanges.empty()) { // where the archive's index put it: the archive is not indexed again
            detail.dataFiles.push_back(io::archiveMember(m_archiveFile, m_treeRoot, path, frame->archiveRanges[i]));
            continue;
        }
        auto tree = this->tree();
        auto source = tree ? (*tree)->open(path) : core::Result<io::ByteSourcePtr>(tree.error());
        if (!source) {
            m_channelErrors[channel] = source.error();
            return;
        }
        detail.dataFiles.push_back(*source);
    }
    detail.dataPaths = std::move(frame->dataPaths);
    detail.blocks = std::move(frame->blocks);
    m_details[channel] = std::move(detail);
}

core::Result<io::FileTreePtr> MefRecording::tree() const
{
    std::call_once(m_treeOnce, [this] {
        if (m_tree) return;
        auto tree = m_archive ? io::openTarTree(m_treeRoot) : io::openDirectoryTree(m_treeRoot);
        if (tree)
            m_tree = *tree;
        else
            m_treeError = tree.error();
    });
    if (m_treeError) return *m_treeError;
    return m_tree;
}

// Spans are listed on the first call for a channel (the viewer's caches need them; conversions visit the blocks).
std::span<const core::BlockSpan> MefRecording::blocks(std::size_t channel) const
{
    if (!ensureChannel(channel).ok()) return {};
    if (!m_spansBuilt[channel].load(std::memory_order_acquire)) {
        std::lock_guard lock(m_spansMutex);
        if (!m_spansBuilt[channel].load(std::memory_order_relaxed)) {
            m_spans[channel] = spansOf(m_details[channel].blocks);
            m_spansBuilt[channel].store(1, std::memory_order_release);
        }
    }
    return m_spans[channel];
}

bool MefRecording::visitBlocks(std::size_t channel, std::int64_t from, std::int64_t to,
                               const std::function<bool(std::size_t, const core::BlockSpan&)>& visit) const
{
    if (!ensureChannel(channel).ok()) return false;
    const std::vector<BlockRef>& all = m_details[channel].blocks;
    auto it = std::partition_point(all.begin(), all.end(), [&](const BlockRef& b) {
        return b.gridIndex + static_cast<std::int64_t>(b.sampleCount) <= from;
    });
    for (; it != all.end() && it->gridIndex < to; ++it)
        if (!visit(static_cast<std::size_t>(it - all.begin()),
                   {it->gridIndex, it->sampleCount, it->minimum, it->maximum, it->minimum != INT32_MIN}))
            break;
    return true;
}

const std::vector<ChannelDetail>& MefRecording::details() const
{
    for (std::size_t c = 0; c < m_details.size(); ++c) (void)ensureChannel(c);
    return m_details;
}

core::Result<const ChannelDetail*> MefRecording::detail(std::size_t channel) const
{
    LV_TRY(ensureChannel(channel));
    return &m_details[channel];
}

SnapshotCheck MefRecording::checkSnapshot() const
{
    if (!m_fingerprint) return {};
    return recheck().check;
}

core::Status MefRecording::stampsOf(std::size_t channel, std::vector<std::string>& dataPaths,
                                    std::vector<SegmentStamp>& stamps) const
{
    if (!m_inFrame[channel]) { // read from the files by this open: its detail is not changed after it
        dataPaths = m_details[channel].dataPaths;
        stamps = m_details[channel].stamps;
        return {};
    }
    auto files = snapshot::readFilesFrame(*m_frames, channel); // not the detail: another thread may be building it
    if (!files) return files.error();
    dataPaths = std::move(files->dataPaths);
    stamps = std::move(files->stamps);
    return {};
}

Recheck MefRecording::recheck() const
{
    Recheck r = recheckFingerprint(*m_fingerprint);
    if (r.check.sessionChanged || m_archive) return r; // an archive's own stamp stands for its members
    std::vector<std::size_t> changed;
    std::size_t next = 0; // r.check.changedChannels is sorted
    for (std::size_t c = 0; c < m_info.channels.size(); ++c) {
        if (next < r.check.changedChannels.size() && r.check.changedChannels[next] == c) {
            changed.push_back(c), ++next;
            continue;
        }
        std::vector<std::string> paths;
        std::vector<SegmentStamp> stamps;
        bool same = stampsOf(c, paths, stamps).ok() && stamps.size() == paths.size();
        for (std::size_t k = 0; same && k < paths.size(); ++k) same = segmentUnchanged(m_treeRoot, paths[k], stamps[k]);
        if (!same) changed.push_back(c);
    }
    r.check.changedChannels = std::move(changed);
    r.check.state = r.check.changedChannels.empty() ? SnapshotCheck::State::Fresh : SnapshotCheck::State::Stale;
    return r;
}

core::Status MefRecording::checkSegment(std::size_t channel, std::uint32_t segment) const
{
    if (!m_segmentChecked[channel]) return {}; // read from the files by this open
    std::atomic<std::uint8_t>& checked = m_segmentChecked[channel][segment];
    if (checked.load(std::memory_order_acquire)) return {};
    const ChannelDetail& d = m_details[channel];
    bool same = false;
    std::string path;
    if (m_archive) {
        if (m_archiveChecked.load() == 0) {
            auto now = stampFile(m_treeRoot);
            m_archiveChecked = now && *now == m_fingerprint->archiveStamp ? 1 : -1;
        }
        same = m_archiveChecked.load() == 1;
        path = m_treeRoot;
    } else {
        same = segment < d.stamps.size() && segmentUnchanged(m_treeRoot, d.dataPaths[segment], d.stamps[segment]);
        path = io::joinPath(m_treeRoot, d.dataPaths[segment]);
        path = path.substr(0, path.rfind('/')); // the segment folder
    }
    if (!same) {
        std::error_code ec;
        std::filesystem::remove(m_frames->file, ec); // the next open reads the files
        return makeError(ErrorCode::Io, "changed since it was opened; open it again", path);
    }
    checked.store(1, std::memory_order_release);
    return {};
}

std::size_t MefRecording::channelsReadFromFiles() const
{
    return static_cast<std::size_t>(std::count(m_readFromFiles.begin(), m_readFromFiles.end(), 1));
}

std::vector<std::string> MefRecording::takeWarnings()
{
    std::lock_guard lock(m_warningsMutex);
    return std::exchange(m_warnings, {});
}

core::Uutc MefRecording::keptTime(std::int64_t stored) const
{
    if (stored == kUutcNoEntry) return core::kNoTime;
    const std::int64_t offset = m_timeOffset && *m_timeOffset != kUutcNoEntry ? *m_timeOffset : 0;
    const core::Uutc t = stored < 0 ? core::saturatingAdd(-stored, offset) : stored;
    const std::int64_t back = m_timeOrigin == std::numeric_limits<std::int64_t>::min() // a damaged snapshot's
                                  ? std::numeric_limits<std::int64_t>::max()
                                  : -m_timeOrigin;
    return core::saturatingAdd(t, back);
}

core::Result<RedBlockHeader> MefRecording::checkBlock(const BlockRef& b, std::span<const std::uint8_t> block,
                                                      bool verifyCrc) const
{
    if (block.size() < kRedHeaderBytes) return makeError(ErrorCode::Corrupt, "block shorter than its header");
    RedBlockHeader h = parseRedHeader(block);
    if (h.blockBytes != b.blockBytes || h.sampleCount != b.sampleCount)
        return makeError(ErrorCode::Corrupt, "header disagrees with the index (" + std::to_string(h.sampleCount) +
                                                 " samples in " + std::to_string(h.blockBytes) + " bytes, index says " +
                                                 std::to_string(b.sampleCount) + " in " + std::to_string(b.blockBytes) +
                                                 ")");
    if (verifyCrc && !redCrcOk(h, block)) return makeError(ErrorCode::CrcMismatch, "CRC mismatch");
    LV_TRY(checkRedHeaderValues(h));
    // The header's time is under the block CRC, the index entry's only under the index's: a block placed by a
    // time its own header does not give is damage (its samples would be shown at the wrong time).
    if (const core::Uutc own = keptTime(h.startTime); own != b.startTime)
        return makeError(ErrorCode::Corrupt, "its header says it starts at " + core::formatIso(own) +
                                                 ", the index places it at " + core::formatIso(b.startTime));
    if (const int level = h.encryptionLevel(); level > 0) {
        const auto& key = level == 1 ? m_access.level1Key : m_access.level2Key;
        if (!key)
            return makeError(ErrorCode::PasswordRequired,
                             "encrypted: needs the level-" + std::to_string(level) + " password");
        aesDecrypt(*key, std::span(h.statistics).first(16));
    }
    return h;
}

// A failed block: the error (path, offset, block number), or a warning when damaged blocks may be skipped.
// Each damaged block is reported once per recording (a conversion may read it more than once).
core::Status MefRecording::blockFailed(std::size_t channel, const BlockRef& b, const io::ByteSource& file,
                                       core::Error e, const core::ReadControl& control) const
{
    e.path = file.path();
    e.offset = b.fileOffset;
    e.message = "RED block " + std::to_string(b.indexEntry) + ": " + e.message;
    const bool damage = e.code == ErrorCode::Corrupt || e.code == ErrorCode::CrcMismatch;
    if (!control.skipDamagedBlocks || !damage) return e;
    std::lock_guard lock(m_warningsMutex);
    if (!m_damageSeen.emplace(channel, b.segment, b.fileOffset).second) return {};
    m_warnings.push_back(e.describe() + "; its samples read as missing");
    m_damage.push_back({channel, b.gridIndex, b.sampleCount, file.path(), static_cast<std::uint64_t>(b.fileOffset)});
    return {};
}

std::vector<core::DamagedBlock> MefRecording::takeDamage()
{
    std::lock_guard lock(m_warningsMutex);
    return std::exchange(m_damage, {});
}

core::Result<const BlockRef*> MefRecording::blockToDecode(std::size_t channel, std::size_t block,
                                                          std::size_t outSize) const
{
    LV_TRY(ensureChannel(channel));
    if (block >= m_details[channel].blocks.size()) return makeError(ErrorCode::InvalidArgument, "no such block");
    const BlockRef& b = m_details[channel].blocks[block];
    LV_TRY(checkSegment(channel, b.segment));
    if (outSize < b.sampleCount) return makeError(ErrorCode::InvalidArgument, "output smaller than the block");
    return &b;
}

} // namespace lv::formats::mef3
