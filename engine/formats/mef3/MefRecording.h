// Opens a MEF 3.0 session (.mefd directory, .mefd.tar archive, or one .timd channel) as a core::Recording.
#pragma once

#include "core/BlockSource.h"
#include "core/Recording.h"
#include "formats/mef3/BlockMap.h"
#include "formats/mef3/Metadata.h"
#include "formats/mef3/RedBlock.h"
#include "io/ByteSource.h"
#include "io/FileTree.h"

#include <memory>
#include <mutex>
#include <string>

namespace lv::formats::mef3 {

struct OpenOptions {
    OpenOptions() = default;
    OpenOptions(std::string pass, std::string snapshots = {})
        : password(std::move(pass))
        , snapshotDirectory(std::move(snapshots))
    {}
    std::string password;          // level 1 or level 2; empty for none
    std::string snapshotDirectory; // where metadata snapshots are kept (see Snapshot.h); empty: none
};

// What the reader knows of one channel beyond the format-neutral description.
struct ChannelDetail {
    std::vector<io::ByteSourcePtr> dataFiles; // one .tdat per segment
    std::vector<std::string> dataPaths;       // their paths in the session's file tree
    std::vector<TimeSeriesMetadata> metadata; // one per segment
    std::vector<BlockRef> blocks;             // sorted by grid index
};

// Where an open's warnings come from, so that reloading some channels replaces only theirs.
struct OpenWarnings {
    std::vector<std::string> layout;                      // the session walk (e.g. skipped video channels)
    std::vector<std::vector<std::string>> channels;       // per channel: its metadata, index and data files
    std::vector<std::string> sessionRecords;              // session-level records
    std::vector<std::vector<std::string>> channelRecords; // per channel: its channel- and segment-level records
    std::vector<std::string> times;                       // times made relative
    std::vector<std::string> all() const;                 // in this order
};

class MefRecording final : public core::Recording, public core::BlockSource {
public:
    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override;
    const core::BlockSource* blockSource() const override { return this; }
    std::span<const core::BlockSpan> blocks(std::size_t channel) const override { return m_spans.at(channel); }
    core::Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                             const core::ReadControl& control) const override;

    int accessLevel() const { return m_access.level; }
    const std::vector<ChannelDetail>& details() const { return m_details; }

private:
    friend core::Result<std::unique_ptr<MefRecording>> openMef3(const std::string& path, const OpenOptions& options);
    friend core::Status saveSnapshot(const MefRecording&, const struct Fingerprint&, const std::string&);
    friend core::Result<std::unique_ptr<MefRecording>> loadSnapshot(const std::string&, const std::string&);
    MefRecording() = default;
    void makeSpans();
    struct Job;
    core::Status decodeJob(const Job& job, std::span<const core::RawSlice> slices, const core::ReadControl& control,
                           std::vector<std::int32_t>& scratch) const;
    core::Result<RedBlockHeader> checkBlock(const BlockRef& b, std::span<const std::uint8_t> block,
                                            const core::ReadControl& control) const;
    core::Status blockFailed(const BlockRef& b, const io::ByteSource& file, core::Error e,
                             const core::ReadControl& control) const;

    core::RecordingInfo m_info;
    std::vector<ChannelDetail> m_details;
    std::vector<std::vector<core::BlockSpan>> m_spans; // per channel, from m_details
    io::FileTreePtr m_tree;                            // where the data files live
    Access m_access;
    mutable std::mutex m_warningsMutex;
    mutable std::vector<std::string> m_warnings;
};

core::Result<std::unique_ptr<MefRecording>> openMef3(const std::string& path, const OpenOptions& options);

} // namespace lv::formats::mef3
