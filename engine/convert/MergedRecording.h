// Several opened recordings read as one: channels matched by name, parts placed in time on each channel's grid.
#pragma once

#include "core/Recording.h"

#include <memory>
#include <string>
#include <vector>

namespace lv::convert {

// A core::Recording over parts (any format the engine opens), so every writer exports a merge unchanged.
//
// - Channels: the union of the parts' channel names, in first-seen order (parts in the order given).
// - Per channel, every part holding it must have the same sampling rate and unit; the parts are put in time
//   order and each is placed at the grid point of the merged channel nearest its first sample (a part off the
//   grid by more than 1 us is shifted, with a warning). Parts of one channel must not overlap in time.
// - The time between parts becomes gaps; the parts' own gaps and segments stay; annotations are concatenated in
//   time order; the parts' warnings are kept, each prefixed with its file.
// - Scale: counts are int32 on one factor and offset per channel, kept exact wherever possible: the merged
//   channel takes the coarsest scale onto which every part maps by whole numbers (a part's factor divided by
//   1, 2, ... 10, with that part's offset; earlier parts preferred), so counts are copied, or multiplied and
//   shifted by whole numbers (e.g. an EDF part whose offset is half a step off a MEF part's: steps halved).
//   When there is none (parts with unrelated physical ranges), the first part's scale is used and the others'
//   values are rounded to its nearest step (at most half a step off), with a warning naming them.
// - readRaw reads each slice from the part(s) covering it, part after part, with the caller's ReadControl
//   (runner, cancellation, progress in samples over the whole call).
class MergedRecording final : public core::Recording {
public:
    // Fails (core::Error, message naming the files) on a rate or unit mismatch, an overlap, or unknown times.
    static core::Result<std::unique_ptr<MergedRecording>> create(std::vector<std::unique_ptr<core::Recording>> parts);

    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override;
    // The parts' damaged blocks, on the merged channels and grids.
    std::vector<core::DamagedBlock> takeDamage() override;

    std::size_t partCount() const { return m_parts.size(); }

private:
    // One part's stretch of one merged channel, and how its counts map onto the merged channel's scale.
    struct Piece {
        std::size_t part = 0;
        std::size_t channel = 0;     // channel index in the part
        std::int64_t offset = 0;     // merged grid index of the part's sample 0
        std::int64_t length = 0;     // the part's grid length
        bool exact = true;           // counts * multiplier + shift; else rounded from ratio and fraction
        std::int64_t multiplier = 1; // exact mapping
        std::int64_t shift = 0;
        double ratio = 1.0; // rounded mapping: count * ratio + fraction, to the nearest integer
        double fraction = 0.0;
    };

    MergedRecording() = default;
    core::Status placeChannel(std::size_t merged, std::vector<Piece>& pieces);
    void chooseScale(std::size_t merged, std::vector<Piece>& pieces);
    core::Status rescale(const Piece& piece, std::span<std::int32_t> counts) const;
    const std::string& fileOf(std::size_t part) const { return m_names[part]; }

    std::vector<std::unique_ptr<core::Recording>> m_parts;
    std::vector<std::string> m_names;         // each part's path
    std::vector<std::vector<Piece>> m_pieces; // per merged channel, in time order
    core::RecordingInfo m_info;
};

// Opens every path with formats::openRecording (the same password and snapshot folder for each) and merges them.
// An unreadable part fails with its own error.
core::Result<std::unique_ptr<MergedRecording>>
openMerged(const std::vector<std::string>& paths, const std::string& password, const std::string& snapshotDirectory);

} // namespace lv::convert
