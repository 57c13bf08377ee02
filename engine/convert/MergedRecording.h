// Several opened recordings read as one: channels matched by name, parts placed in time on each channel's grid.
#pragma once

#include "convert/MergeTimeline.h"
#include "core/Recording.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lv::convert {

// A core::Recording over parts (any format the engine opens), so every writer exports a merge unchanged.
//
// - Channels: the union of the parts' channel names, in first-seen order (parts in the order given).
// - Per channel, every part holding it must have the same sampling rate and unit; the parts are put in time
//   order and each is placed at the grid point of the merged channel nearest its first sample (a part off the
//   grid by more than 1 us is shifted, with a warning). Where parts of one channel overlap in time the policy
//   decides: Error refuses the merge (the default), First keeps the earlier part's samples, Last the later's
//   (convert/MergePlacement.h); each overlap is said in a warning.
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
    // Fails (core::Error, message naming the files) on a rate or unit mismatch, an overlap under
    // OverlapPolicy::Error, or unknown times.
    static core::Result<std::unique_ptr<MergedRecording>> create(std::vector<std::unique_ptr<core::Recording>> parts,
                                                                 OverlapPolicy overlap = OverlapPolicy::Error);
    // The time line the merge would write (an overlap under Error is in `error`, not a failure).
    static core::Result<MergeTimeline> plan(std::vector<std::unique_ptr<core::Recording>> parts, OverlapPolicy overlap);

    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override;
    // The parts' damaged blocks, on the merged channels and grids.
    std::vector<core::DamagedBlock> takeDamage() override;
    // Irregular channels: the parts' times, sample after sample (grid channels: their merged grids).
    core::Status readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control) override;
    core::Result<core::SampleSpan> samplesIn(std::size_t channel, core::TimeRange range) override;

    std::size_t partCount() const { return m_parts.size(); }

private:
    // One part's stretch of one merged channel, and how its counts map onto the merged channel's scale.
    struct Piece : Fragment {
        bool exact = true;           // counts * multiplier + shift; else rounded from ratio and fraction
        std::int64_t multiplier = 1; // exact mapping
        std::int64_t shift = 0;
        double ratio = 1.0; // rounded mapping: count * ratio + fraction, to the nearest integer
        double fraction = 0.0;
    };

    MergedRecording() = default;
    static core::Result<std::unique_ptr<MergedRecording>> build(std::vector<std::unique_ptr<core::Recording>> parts,
                                                                OverlapPolicy overlap);
    core::Status checkChannel(std::size_t merged, const std::vector<PartChannel>& parts) const;
    void placeChannel(std::size_t merged, std::vector<PartChannel> parts, OverlapPolicy overlap);
    core::Status placeIrregular(std::size_t merged, std::vector<PartChannel> parts, OverlapPolicy overlap);
    void sayKeptOverlaps(const std::string& channel, const std::vector<Overlap>& overlaps);
    std::vector<core::Recording*> partRecordings() const;
    MergeTimeline timeline(OverlapPolicy overlap) const;
    void chooseScale(std::size_t merged, std::vector<Piece>& pieces);
    core::Status rescale(const Piece& piece, std::span<std::int32_t> counts) const;
    const std::string& fileOf(std::size_t part) const { return m_names[part]; }

    std::vector<std::unique_ptr<core::Recording>> m_parts;
    std::vector<std::string> m_names;                                    // each part's path
    std::vector<std::vector<Piece>> m_pieces;                            // per merged channel, in time order
    std::vector<std::vector<Overlap>> m_overlaps;                        // per merged channel
    std::map<std::vector<std::pair<std::size_t, int>>, int> m_timeBases; // parts' (part, time base) -> merged
    core::RecordingInfo m_info;
};

// Opens every path with formats::openRecording (the same password and snapshot folder for each) and merges them
// (concatenated, or stacked: convert/StackedRecording.h). An unreadable part fails with its own error.
core::Result<std::unique_ptr<core::Recording>> openMerged(const std::vector<std::string>& paths,
                                                          const std::string& password,
                                                          const std::string& snapshotDirectory,
                                                          const MergeOptions& options = {});
// The time line of that merge, from the parts' descriptions alone (a dry run).
core::Result<MergeTimeline> planMerge(const std::vector<std::string>& paths, const std::string& password,
                                      const std::string& snapshotDirectory, const MergeOptions& options);

} // namespace lv::convert
