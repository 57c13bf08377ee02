// Parallel raw reads: slices split into runs of consecutive blocks, each decoded apart, then written into its range.
#include "formats/mef3/MefRecording.h"

#include "core/SpeculativeJobs.h"

#include <algorithm>
#include <atomic>
#include <memory>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

namespace {

constexpr std::uint64_t kMaxJobBytes = 1u << 20; // one read per run of blocks, at most this many bytes
constexpr std::size_t kMaxJobBlocks = 64;
constexpr std::uint64_t kMaxJobSamples = 1u << 22; // and at most this many samples (16 MiB of scratch)

// Marks the parts of `slice` that no block covers as missing (blocks fill the rest), starting at block k.
void fillGaps(const core::RawSlice& slice, const std::vector<BlockRef>& blocks, std::size_t k)
{
    const std::int64_t end = slice.firstSample + static_cast<std::int64_t>(slice.out.size());
    std::int64_t cursor = slice.firstSample;
    auto fill = [&](std::int64_t from, std::int64_t to) {
        if (from < to)
            std::fill(slice.out.begin() + (from - slice.firstSample), slice.out.begin() + (to - slice.firstSample),
                      core::kNoSample);
    };
    for (; k < blocks.size() && blocks[k].gridIndex < end; ++k) {
        fill(cursor, std::min(blocks[k].gridIndex, end));
        cursor = std::max(cursor, blocks[k].gridIndex + static_cast<std::int64_t>(blocks[k].sampleCount));
    }
    fill(std::min(cursor, end), end);
}

// Marks block b's part of `slice` as missing (a damaged block that was skipped).
void fillBlock(const core::RawSlice& slice, const BlockRef& b)
{
    const std::int64_t from = std::max(b.gridIndex, slice.firstSample);
    const std::int64_t to = std::min<std::int64_t>(b.gridIndex + b.sampleCount,
                                                   slice.firstSample + static_cast<std::int64_t>(slice.out.size()));
    if (from < to)
        std::fill(slice.out.begin() + (from - slice.firstSample), slice.out.begin() + (to - slice.firstSample),
                  core::kNoSample);
}

bool adjacentInFile(const BlockRef& a, const BlockRef& b)
{
    return a.segment == b.segment && a.fileOffset + a.blockBytes == b.fileOffset;
}

} // namespace

// Blocks [firstBlock, lastBlock) of one channel, feeding one slice.
struct MefRecording::Job {
    std::size_t slice = 0;
    std::size_t channel = 0;
    std::size_t firstBlock = 0;
    std::size_t lastBlock = 0; // half-open
    std::uint64_t samples = 0;
};

struct MefRecording::JobFindings {
    struct Block {
        const BlockRef* ref = nullptr;
        std::size_t at = 0;               // its samples in the scratch, when decoded
        std::optional<core::Error> error; // its check or decode failed
    };
    std::optional<core::Error> readError; // the job's bytes could not be read
    std::vector<Block> blocks;            // in block order
};

void MefRecording::decodeJobBlocks(const Job& job, bool verifyCrc, std::vector<std::int32_t>& scratch,
                                   JobFindings& found) const
{
    found.readError.reset();
    found.blocks.clear();
    const ChannelDetail& detail = m_details[job.channel];
    const BlockRef& first = detail.blocks[job.firstBlock];
    const BlockRef& last = detail.blocks[job.lastBlock - 1];
    const io::ByteSource& file = *detail.dataFiles[first.segment];
    auto bytes = file.read(static_cast<std::uint64_t>(first.fileOffset),
                           static_cast<std::uint64_t>(last.fileOffset + last.blockBytes - first.fileOffset));
    if (!bytes) {
        found.readError = bytes.error();
        return;
    }
    scratch.resize(std::max<std::size_t>(scratch.size(), job.samples));
    thread_local std::vector<RedTask> tasks;
    thread_local std::vector<std::size_t> taskBlocks; // each task's entry in found.blocks
    tasks.clear();
    taskBlocks.clear();
    std::size_t at = 0;
    for (std::size_t k = job.firstBlock; k < job.lastBlock; ++k) {
        const BlockRef& b = detail.blocks[k];
        const std::span<const std::uint8_t> block(bytes->data() + (b.fileOffset - first.fileOffset), b.blockBytes);
        auto header = checkBlock(b, block, verifyCrc);
        if (!header) {
            found.blocks.push_back({&b, 0, header.error()});
            continue;
        }
        taskBlocks.push_back(found.blocks.size());
        found.blocks.push_back({&b, at, std::nullopt});
        tasks.push_back(RedTask{*header, block, std::span(scratch).subspan(at, b.sampleCount), {}});
        at += b.sampleCount;
    }
    decodeRedBatch(tasks);
    for (std::size_t t = 0; t < tasks.size(); ++t)
        if (!tasks[t].status.ok()) found.blocks[taskBlocks[t]].error = tasks[t].status.error();
}

core::Status MefRecording::commitJob(const Job& job, const core::RawSlice& slice, const JobFindings& found,
                                     std::span<const std::int32_t> scratch, const core::ReadControl& control) const
{
    if (found.readError) return *found.readError;
    const ChannelDetail& detail = m_details[job.channel];
    const io::ByteSource& file = *detail.dataFiles[detail.blocks[job.firstBlock].segment];
    const std::int64_t sliceEnd = slice.firstSample + static_cast<std::int64_t>(slice.out.size());
    for (const JobFindings::Block& block : found.blocks) {
        const BlockRef& b = *block.ref;
        if (block.error) {
            LV_TRY(blockFailed(slice.channel, b, file, *block.error, control));
            fillBlock(slice, b);
            continue;
        }
        const std::int64_t from = std::max(b.gridIndex, slice.firstSample);
        const std::int64_t to = std::min<std::int64_t>(b.gridIndex + b.sampleCount, sliceEnd);
        if (from < to)
            std::copy(scratch.begin() + static_cast<std::ptrdiff_t>(block.at) + (from - b.gridIndex),
                      scratch.begin() + static_cast<std::ptrdiff_t>(block.at) + (to - b.gridIndex),
                      slice.out.begin() + (from - slice.firstSample));
    }
    return {};
}

core::Status MefRecording::decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                                       const core::ReadControl& control) const
{
    auto b = blockToDecode(channel, block, out.size());
    if (!b) return b.error();
    const core::RawSlice slice{channel, (*b)->gridIndex, out.first((*b)->sampleCount)};
    const Job job{0, channel, block, block + 1, (*b)->sampleCount};
    thread_local std::vector<std::int32_t> scratch;
    thread_local JobFindings found;
    decodeJobBlocks(job, control.verifyCrc, scratch, found);
    return commitJob(job, slice, found, scratch, control);
}

core::Status MefRecording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    auto jobs = std::make_shared<std::vector<Job>>();
    std::uint64_t totalSamples = 0;
    for (std::size_t s = 0; s < slices.size(); ++s) {
        const core::RawSlice& slice = slices[s];
        LV_TRY(ensureChannel(slice.channel));
        const std::vector<BlockRef>& blocks = m_details[slice.channel].blocks;
        const std::int64_t end = slice.firstSample + static_cast<std::int64_t>(slice.out.size());
        std::size_t k = firstBlockEndingAfter(blocks, slice.firstSample);
        fillGaps(slice, blocks, k);
        while (k < blocks.size() && blocks[k].gridIndex < end) {
            LV_TRY(checkSegment(slice.channel, blocks[k].segment));
            Job job{s, slice.channel, k, k + 1, blocks[k].sampleCount};
            std::uint64_t bytes = blocks[k].blockBytes;
            while (job.lastBlock < blocks.size() && blocks[job.lastBlock].gridIndex < end &&
                   job.lastBlock - job.firstBlock < kMaxJobBlocks &&
                   adjacentInFile(blocks[job.lastBlock - 1], blocks[job.lastBlock]) &&
                   bytes + blocks[job.lastBlock].blockBytes <= kMaxJobBytes &&
                   job.samples + blocks[job.lastBlock].sampleCount <= kMaxJobSamples) {
                bytes += blocks[job.lastBlock].blockBytes;
                job.samples += blocks[job.lastBlock].sampleCount;
                ++job.lastBlock;
            }
            k = job.lastBlock;
            jobs->push_back(job);
            totalSamples += job.samples;
        }
    }

    // A job decodes into its thread's scratch; only the run that claims it (the first to finish) touches the
    // slices, the control and these: they live until every job has committed.
    std::vector<std::optional<core::Error>> errors(jobs->size());
    std::atomic<std::uint64_t> done{0};
    auto run = [this, jobs, verifyCrc = control.verifyCrc, slices, &control, &errors, &done,
                totalSamples](std::size_t j, core::JobCommit& commit) {
        thread_local std::vector<std::int32_t> scratch;
        thread_local JobFindings found;
        const Job& job = (*jobs)[j];
        decodeJobBlocks(job, verifyCrc, scratch, found);
        if (!commit.claim()) return;
        core::Status status = commitJob(job, slices[job.slice], found, scratch, control);
        if (!status.ok()) errors[j] = status.error();
        const std::uint64_t now = done.fetch_add(job.samples) + job.samples;
        if (control.progress) control.progress(now, totalSamples);
    };
    const bool complete = core::runSpeculative(control.runner, m_gate, jobs->size(), run, control.cancel);
    if (!complete || (control.cancel && control.cancel->cancelled()))
        return makeError(ErrorCode::Cancelled, "read cancelled");
    for (const auto& e : errors)
        if (e) return *e;
    return {};
}

} // namespace lv::formats::mef3
