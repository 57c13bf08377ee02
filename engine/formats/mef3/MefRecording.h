// Opens a MEF 3.0 session (.mefd directory, .mefd.tar archive, or one .timd channel) as a core::Recording.
#pragma once

#include "core/BlockSource.h"
#include "core/Recording.h"
#include "core/WorkGate.h"
#include "formats/mef3/BlockMap.h"
#include "formats/mef3/Fingerprint.h"
#include "formats/mef3/Metadata.h"
#include "formats/mef3/RedBlock.h"
#include "io/ByteSource.h"
#include "io/FileTree.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <tuple>

namespace lv::formats::mef3 {

struct OpenOptions {
    OpenOptions() = default;
    OpenOptions(std::string pass, std::string snapshots = {}, bool deferCheck = false)
        : password(std::move(pass))
        , snapshotDirectory(std::move(snapshots))
        , deferSnapshotCheck(deferCheck)
    {}
    std::string password;          // level 1 or level 2; empty for none
    std::string snapshotDirectory; // where metadata snapshots are kept (see Snapshot.h); empty: none
    // Serve a snapshot without checking it against the session first: the caller (the GUI, once its window
    // shows) runs MefRecording::checkSnapshot on a background thread and opens again when it is stale.
    bool deferSnapshotCheck = false;
    // Channels read side by side by a full open (threads of its own, mostly waiting on the disk: on a cold page
    // cache the open is thousands of small reads, and several in flight finish sooner); 1 reads them in order.
    unsigned loadThreads = 8;
};

// What the reader knows of one channel beyond the format-neutral description.
struct ChannelDetail {
    std::vector<io::ByteSourcePtr> dataFiles; // one .tdat per segment
    std::vector<std::string> dataPaths;       // their paths in the session's file tree
    std::vector<TimeSeriesMetadata> metadata; // one per segment (empty when the channel came from a snapshot)
    std::vector<BlockRef> blocks;             // sorted by grid index
    // Per segment, its files as stamped before the open read them (directory sessions with a snapshot folder;
    // empty otherwise): what a snapshot's reads and checks compare the files with.
    std::vector<SegmentStamp> stamps;
};

// Where an open's warnings come from, so that reloading some channels replaces only theirs.
struct OpenWarnings {
    std::vector<std::string> layout;                      // the session walk (e.g. skipped video channels)
    std::vector<std::vector<std::string>> channels;       // per channel: its metadata, index and data files
    std::vector<std::string> sessionRecords;              // session-level records
    std::vector<std::vector<std::string>> channelRecords; // per channel: its channel- and segment-level records
    std::vector<std::string> times;                       // times made relative
    std::vector<std::string> checks;                      // the session's times against the present
    std::vector<std::string> all() const;                 // in this order
};

struct SnapshotFrames;

class MefRecording final : public core::Recording, public core::BlockSource {
public:
    ~MefRecording() override;
    const core::RecordingInfo& info() const override { return m_info; }
    // The open's warnings by where they come from (info().warnings holds them all).
    const OpenWarnings& openWarnings() const { return m_openWarnings; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override;
    std::vector<core::DamagedBlock> takeDamage() override;
    const core::BlockSource* blockSource() const override { return this; }
    // A channel served from a snapshot gets its blocks on first use; empty if that fails (reads say why).
    std::span<const core::BlockSpan> blocks(std::size_t channel) const override;
    // The blocks from the reader's own list, no spans listed (conversions; the viewer lists them).
    bool visitBlocks(std::size_t channel, std::int64_t from, std::int64_t to,
                     const std::function<bool(std::size_t, const core::BlockSpan&)>& visit) const override;
    core::Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                             const core::ReadControl& control) const override;
    // Reads the blocks one by one and decodes them side by side (MefDecodeBlocks.cpp).
    void decodeBlocks(std::span<core::BlockDecode> blocks, const core::ReadControl& control) const override;
    std::size_t preferredBatch() const override { return 16; } // the RED lanes run from 3 blocks, fill up from 8

    int accessLevel() const { return m_access.level; }
    // Every channel's detail (building those a snapshot still holds), or one channel's. Thread-safe.
    const std::vector<ChannelDetail>& details() const;
    core::Result<const ChannelDetail*> detail(std::size_t channel) const;

    // Compares the session now with what this recording was opened from, at a cost independent of the number of
    // segments (see Fingerprint.h); Unknown when opened without a snapshot folder. Thread-safe: the GUI calls it
    // on a background thread after a deferred-check open and opens again when the result is stale.
    // Every file of every segment is compared too (a stat each, see FileStamp): rewritten in place, copied over
    // with preserved times, replaced.
    SnapshotCheck checkSnapshot() const;
    // Whether the open read channel c's metadata and index from the session's files (else: from a snapshot).
    bool channelReadFromFiles(std::size_t channel) const { return m_readFromFiles.at(channel); }
    std::size_t channelsReadFromFiles() const;

private:
    friend class MefOpener; // MefOpen.cpp
    friend core::Status saveSnapshot(const MefRecording&, const Fingerprint&, const std::string&);
    friend core::Result<std::unique_ptr<MefRecording>> parseSnapshot(std::vector<std::uint8_t>, const std::string&,
                                                                     const std::string*);
    MefRecording() = default;
    // checkSnapshot's work: the fingerprint, then the segment stamps of the channels it did not find changed.
    Recheck recheck() const;
    // The stamps of channel c's segments and their data files' tree paths, from its snapshot frame or its detail.
    core::Status stampsOf(std::size_t channel, std::vector<std::string>& dataPaths,
                          std::vector<SegmentStamp>& stamps) const;
    // Before a read of channel c's segment: its files (an archive: the archive) unchanged since the snapshot was
    // written, else an error (the snapshot is removed, so that opening again reads the files). Checked once per
    // segment; channels read from the files are not checked.
    core::Status checkSegment(std::size_t channel, std::uint32_t segment) const;
    void initChannels(std::size_t count);
    void setChannel(std::size_t channel, ChannelDetail detail);
    core::Status ensureChannel(std::size_t channel) const;
    void buildChannel(std::size_t channel) const;
    core::Result<io::FileTreePtr> tree() const;
    // Block `block` of `channel`, once its channel is built, its segment checked and `outSize` samples can hold it.
    core::Result<const BlockRef*> blockToDecode(std::size_t channel, std::size_t block, std::size_t outSize) const;
    // A read's run of blocks of one slice, and what reading, checking and decoding them found (MefReadRaw.cpp).
    struct Job;
    struct JobFindings;
    // Touches neither the read's slices nor its control, so that a helper may still run it after the read returned
    // (core::runSpeculative): the recording is kept by m_gate.
    void decodeJobBlocks(const Job& job, bool verifyCrc, std::vector<std::int32_t>& scratch, JobFindings& found) const;
    // Writes the findings into the job's slice: samples, missing damaged blocks (or their error), warnings.
    core::Status commitJob(const Job& job, const core::RawSlice& slice, const JobFindings& found,
                           std::span<const std::int32_t> scratch, const core::ReadControl& control) const;
    // A stored time (a RED header's) as the open kept the index's: offset applied, made relative if they were.
    core::Uutc keptTime(std::int64_t stored) const;
    core::Result<RedBlockHeader> checkBlock(const BlockRef& b, std::span<const std::uint8_t> block,
                                            bool verifyCrc) const;
    core::Status blockFailed(std::size_t channel, const BlockRef& b, const io::ByteSource& file, core::Error e,
                             const core::ReadControl& control) const;

    core::RecordingInfo m_info;
    OpenWarnings m_openWarnings;              // m_info.warnings by origin
    std::optional<core::Uutc> m_timeOffset;   // the recording time offset the open used
    core::Uutc m_timeOrigin = 0;              // subtracted from true times when they were made relative
    std::optional<Fingerprint> m_fingerprint; // what the open saw (with a snapshot folder)
    Access m_access;

    // Per channel; a channel still held by m_frames (m_inFrame) is built once, on first use, by any thread.
    mutable std::vector<ChannelDetail> m_details;
    mutable std::vector<std::vector<core::BlockSpan>> m_spans; // listed on first blocks() call (m_spansBuilt)
    mutable std::unique_ptr<std::atomic<std::uint8_t>[]> m_spansBuilt;
    mutable std::mutex m_spansMutex;
    mutable std::vector<std::optional<core::Error>> m_channelErrors;
    std::unique_ptr<std::once_flag[]> m_channelOnce;
    std::vector<std::uint8_t> m_inFrame;       // 1: channel c comes from m_frames
    std::vector<std::uint8_t> m_readFromFiles; // 1: channel c was read from the session's files
    std::shared_ptr<const SnapshotFrames> m_frames;
    mutable std::vector<std::unique_ptr<std::atomic<std::uint8_t>[]>> m_segmentChecked; // per channel from m_frames
    mutable std::atomic<int> m_archiveChecked{0};                                       // 1 unchanged, -1 changed

    std::string m_treeRoot; // the session tree, opened on first use when not given (an archive's index)
    bool m_archive = false;
    io::ByteSourcePtr m_archiveFile; // a snapshot's archive, opened on first read (members at the ranges it keeps)
    mutable std::once_flag m_treeOnce;
    mutable io::FileTreePtr m_tree;
    mutable std::optional<core::Error> m_treeError;

    mutable std::mutex m_warningsMutex;
    mutable std::vector<std::string> m_warnings;
    mutable std::vector<core::DamagedBlock> m_damage;
    mutable std::set<std::tuple<std::size_t, std::uint32_t, std::int64_t>> m_damageSeen; // channel, segment, offset

    // Last, so destroyed first: waits for the helpers of finished reads still decoding (see decodeJobBlocks).
    core::WorkGate m_gate;
};

core::Result<std::unique_ptr<MefRecording>> openMef3(const std::string& path, const OpenOptions& options);

} // namespace lv::formats::mef3
