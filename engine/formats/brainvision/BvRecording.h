// A BrainVision file set (.vhdr, .vmrk, .eeg) opened as a core::Recording: every channel on one grid, the data file
// cut into blocks of whole data points, segments ("New Segment" markers with dates) placed on the grid with the
// gaps between them.
#pragma once

#include "core/BlockSource.h"
#include "core/Recording.h"
#include "formats/brainvision/BvHeader.h"
#include "io/ByteSource.h"

#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace lv::formats::brainvision {

class BvRecording final : public core::Recording, public core::BlockSource {
public:
    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override;
    const core::BlockSource* blockSource() const override { return this; }
    std::span<const core::BlockSpan> blocks(std::size_t channel) const override;
    bool storesExtrema() const override { return false; }
    core::Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                             const core::ReadControl& control) const override;

    const BvHeader& header() const { return m_header; }
    // Data points of each channel in the data file.
    std::int64_t dataPoints() const { return m_points; }

private:
    friend class BvOpener;
    friend core::Result<std::unique_ptr<BvRecording>> openBrainVision(const std::string& path);
    BvRecording() = default;

    // Data points [first, end) of the file, all of them on the grid from gridFirst on.
    struct Run {
        std::int64_t first = 0, end = 0, gridFirst = 0;
    };
    // A part of a slice: data points [first, first + count) of the file into out[at...].
    struct Piece {
        std::size_t slice = 0;
        std::int64_t first = 0, count = 0;
        std::size_t at = 0;
    };
    std::vector<Piece> piecesOf(std::span<const core::RawSlice> slices) const;
    core::Status readPieces(std::span<const Piece> pieces, std::span<const core::RawSlice> slices,
                            std::vector<std::uint8_t>& buffer) const;
    // Stored values of one channel to counts: `stride` bytes apart.
    void decode(std::size_t channel, const std::uint8_t* in, std::size_t stride, std::size_t count,
                std::int32_t* out) const;
    std::uint64_t offsetOf(std::size_t channel, std::int64_t point) const;
    // The frames [first, end) of a multiplexed file, shared by the channels decoding one block after another.
    core::Result<std::shared_ptr<const std::vector<std::uint8_t>>> frames(std::int64_t first, std::int64_t end) const;

    BvHeader m_header;
    core::RecordingInfo m_info;
    io::ByteSourcePtr m_data;
    std::int64_t m_points = 0;
    std::vector<Run> m_runs;
    std::vector<core::BlockSpan> m_blocks;  // the same for every channel
    std::vector<std::int64_t> m_blockPoint; // per block: its first data point in the file
    std::vector<double> m_step;             // per channel, float data: file values per count
    mutable std::mutex m_mutex;
    mutable std::vector<std::string> m_warnings;
    mutable std::set<std::size_t> m_outOfRange;
    mutable std::int64_t m_framesFirst = -1;
    mutable std::shared_ptr<const std::vector<std::uint8_t>> m_frames;
};

// Opens a header file and the data and marker files it names.
core::Result<std::unique_ptr<BvRecording>> openBrainVision(const std::string& path);

// A regular file named *.vhdr (any case), or one whose first line is a BrainVision header's.
bool looksLikeBrainVision(const std::string& path);

} // namespace lv::formats::brainvision
