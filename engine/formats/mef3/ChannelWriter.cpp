// Channel writing: split into blocks at gaps, encode in parallel, append in order, carry the short tail.
#include "formats/mef3/ChannelWriter.h"

#include "core/Recording.h"
#include "formats/mef3/RedEncoder.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

ChannelWriter::ChannelWriter(std::unique_ptr<SegmentWriter> segment, core::TaskRunner* runner)
    : m_segment(std::move(segment))
    , m_runner(runner)
{}

core::Result<std::unique_ptr<ChannelWriter>> ChannelWriter::create(const SegmentSetup& segment,
                                                                   core::TaskRunner* runner)
{
    auto first = SegmentWriter::create(segment);
    if (!first) return first.error();
    return std::unique_ptr<ChannelWriter>(new ChannelWriter(std::move(*first), runner));
}

core::Result<std::unique_ptr<ChannelWriter>> ChannelWriter::reopen(const SegmentSetup& segment,
                                                                   core::TaskRunner* runner)
{
    SegmentSetup last = segment;
    const std::vector<int> numbers = segmentNumbers(segment);
    last.segmentNumber = numbers.empty() ? -1 : numbers.back();
    if (last.segmentNumber < 0)
        return makeError(ErrorCode::NotFound, "the channel has no segment to append to", segment.channelDir);
    auto writer = SegmentWriter::reopen(last);
    if (!writer) return writer.error();
    auto channel = std::unique_ptr<ChannelWriter>(new ChannelWriter(std::move(*writer), runner));
    const SegmentTotals& t = channel->m_segment->totals();
    if (t.blocks > 0) channel->m_expectedNext = t.end;
    return channel;
}

std::size_t ChannelWriter::split(core::SampleGrid grid, std::int64_t firstIndex, std::span<const std::int32_t> samples,
                                 bool keepTail, std::vector<Block>& blocks)
{
    const std::uint32_t blockSamples = m_segment->setup().blockSamples;
    const double halfSample = 0.5e6 / grid.fs;
    std::size_t i = 0;
    while (i < samples.size()) {
        if (samples[i] == core::kNoSample) {
            ++i;
            m_expectedNext = core::kNoTime; // what follows a missing sample starts a new run
            continue;
        }
        std::size_t end = i;
        while (end < samples.size() && end - i < blockSamples && samples[end] != core::kNoSample) ++end;
        if (keepTail && end == samples.size() && end - i < blockSamples) return i;
        Block b{samples.subspan(i, end - i), grid.timeOf(firstIndex + static_cast<std::int64_t>(i)), false};
        b.discontinuity =
            m_expectedNext == core::kNoTime || std::abs(static_cast<double>(b.start - m_expectedNext)) > halfSample;
        m_expectedNext = grid.timeOf(firstIndex + static_cast<std::int64_t>(end));
        blocks.push_back(b);
        i = end;
    }
    return samples.size();
}

// Encodes the blocks on the runner a batch at a time (the encoded buffers of one batch are kept for the next, so a
// channel holds at most kBatchBlocks encoded blocks, whatever the call's length) and adds them in order.
core::Status ChannelWriter::writeBlocks(const std::vector<Block>& blocks)
{
    constexpr std::size_t kBatchBlocks = 64;
    std::vector<std::vector<std::uint8_t>>& encoded = m_encoded; // buffers reused from batch to batch
    std::vector<RedBlockSummary> summaries;
    core::InlineRunner inlineRunner;
    core::TaskRunner& runner = m_runner ? *m_runner : static_cast<core::TaskRunner&>(inlineRunner);
    for (std::size_t first = 0; first < blocks.size(); first += kBatchBlocks) {
        const std::size_t n = std::min(kBatchBlocks, blocks.size() - first);
        if (encoded.size() < n) encoded.resize(n);
        summaries.assign(n, {});
        runner.parallelFor(n, [&](std::size_t k) {
            thread_local RedEncoder encoder;
            const Block& b = blocks[first + k];
            encoded[k].clear();
            summaries[k] =
                encoder.encode(b.samples, m_segment->setup().timeOffset.stored(b.start), b.discontinuity, encoded[k]);
        });
        for (std::size_t k = 0; k < n; ++k) {
            const Block& b = blocks[first + k];
            IndexEntry e;
            e.startTime = b.start;
            e.sampleCount = static_cast<std::uint32_t>(b.samples.size());
            e.blockBytes = summaries[k].blockBytes;
            e.maximumSampleValue = summaries[k].maximum;
            e.minimumSampleValue = summaries[k].minimum;
            e.redFlags = summaries[k].flags;
            LV_TRY(m_segment->add(encoded[k], e, summaries[k].differenceBytes));
        }
    }
    return {};
}

core::Status ChannelWriter::append(core::SampleGrid grid, std::int64_t firstIndex,
                                   std::span<const std::int32_t> samples)
{
    std::vector<std::int32_t> joined;
    if (!m_tail.empty()) {
        const bool continues = grid.origin == m_tailGrid.origin && grid.fs == m_tailGrid.fs &&
                               firstIndex == m_tailFirst + static_cast<std::int64_t>(m_tail.size());
        if (continues) {
            joined.reserve(m_tail.size() + samples.size());
            joined.insert(joined.end(), m_tail.begin(), m_tail.end());
            joined.insert(joined.end(), samples.begin(), samples.end());
            samples = joined;
            firstIndex = m_tailFirst;
            m_tail.clear();
        } else {
            LV_TRY(flushTail());
        }
    }
    std::vector<Block> blocks;
    const std::size_t tail = split(grid, firstIndex, samples, true, blocks);
    LV_TRY(writeBlocks(blocks));
    m_tail.assign(samples.begin() + static_cast<std::ptrdiff_t>(tail), samples.end());
    m_tailGrid = grid;
    m_tailFirst = firstIndex + static_cast<std::int64_t>(tail);
    return {};
}

core::Status ChannelWriter::flushTail()
{
    if (m_tail.empty()) return {};
    std::vector<Block> blocks;
    split(m_tailGrid, m_tailFirst, m_tail, false, blocks);
    LV_TRY(writeBlocks(blocks));
    m_tail.clear();
    return {};
}

core::Status ChannelWriter::commit()
{
    LV_TRY(flushTail());
    return m_segment->commit();
}

core::Status ChannelWriter::startSegment()
{
    LV_TRY(flushTail());
    LV_TRY(m_segment->close());
    SegmentSetup next = m_segment->setup();
    next.segmentNumber += 1;
    next.startSample += m_segment->totals().samples;
    auto segment = SegmentWriter::create(next);
    if (!segment) return segment.error();
    m_segment = std::move(*segment);
    m_expectedNext = core::kNoTime;
    return {};
}

core::Status ChannelWriter::finish()
{
    LV_TRY(flushTail());
    return m_segment->close();
}

} // namespace lv::formats::mef3
