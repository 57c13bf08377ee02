// One channel being written: samples split into RED blocks at gaps, encoded on the thread pool, appended to
// the channel's last segment; a short tail waits for the next call until commit().
#pragma once

#include "core/Error.h"
#include "core/TaskRunner.h"
#include "core/Time.h"
#include "formats/mef3/SegmentWriter.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

class ChannelWriter {
public:
    // `segment` describes the channel (its .timd directory must exist) and the first segment to create.
    static core::Result<std::unique_ptr<ChannelWriter>> create(const SegmentSetup& segment, core::TaskRunner* runner);
    // Opens the channel's last segment for appending; `segment` supplies names, keys and durability.
    static core::Result<std::unique_ptr<ChannelWriter>> reopen(const SegmentSetup& segment, core::TaskRunner* runner);

    // Samples [firstIndex, firstIndex + samples.size()) of `grid`, in time order. kNoSample values become
    // gaps; a jump in time since the last call is a gap too. Whole blocks are written now.
    core::Status append(core::SampleGrid grid, std::int64_t firstIndex, std::span<const std::int32_t> samples);
    // Writes the waiting tail as a short block and publishes everything appended so far.
    core::Status commit();
    // Commits and continues in a new segment (its first block is a discontinuity).
    core::Status startSegment();
    core::Status finish();

    const std::string& name() const { return m_segment->setup().channelName; }
    const SegmentSetup& setup() const { return m_segment->setup(); }
    std::int64_t segmentCount() const { return m_segment->setup().segmentNumber + 1; }

private:
    struct Block {
        std::span<const std::int32_t> samples;
        core::Uutc start = 0;
        bool discontinuity = false;
    };
    ChannelWriter(std::unique_ptr<SegmentWriter> segment, core::TaskRunner* runner);
    // Splits at gaps and every blockSamples; with `keepTail`, a last run shorter than a block that reaches the
    // end of `samples` is left out and its first index returned (else samples.size()).
    std::size_t split(core::SampleGrid grid, std::int64_t firstIndex, std::span<const std::int32_t> samples,
                      bool keepTail, std::vector<Block>& blocks);
    core::Status writeBlocks(const std::vector<Block>& blocks);
    core::Status flushTail();

    std::unique_ptr<SegmentWriter> m_segment;
    core::TaskRunner* m_runner = nullptr;
    core::Uutc m_expectedNext = core::kNoTime;        // start time that continues the last block without a gap
    std::vector<std::vector<std::uint8_t>> m_encoded; // one buffer per block of a call, kept for the next
    std::vector<std::int32_t> m_tail;
    core::SampleGrid m_tailGrid;
    std::int64_t m_tailFirst = 0;
};

} // namespace lv::formats::mef3
