// Reads of EDF/BDF samples: only the records a request covers, runs of adjacent records in one pread each (or
// only the wanted signals' bytes when they are a small part of a record), jobs on the TaskRunner, each record's
// samples widened to int32 counts straight into the caller's slice.
#include "formats/edf/EdfRecording.h"

#include "core/ReadJobs.h"
#include "core/SampleKernels.h"

#include <algorithm>
#include <utility>

namespace lv::formats::edf {

namespace {

constexpr std::size_t kJobBytes = 1 << 20;

// kNoSample where no block of [from, to) (in time order) holds the slice's sample; the rest is decoded over.
template <typename SpanOf>
void fillUncovered(const core::RawSlice& s, std::size_t from, std::size_t to, SpanOf spanOf)
{
    const std::int64_t end = s.firstSample + static_cast<std::int64_t>(s.out.size());
    std::int64_t at = s.firstSample;
    const auto fillTo = [&](std::int64_t until) {
        until = std::min(until, end);
        if (until > at)
            std::fill(s.out.begin() + (at - s.firstSample), s.out.begin() + (until - s.firstSample), core::kNoSample);
        at = std::max(at, until);
    };
    for (std::size_t i = from; i < to; ++i) {
        const core::BlockSpan b = spanOf(i);
        fillTo(b.first);
        at = std::max(at, b.first + static_cast<std::int64_t>(b.count));
    }
    fillTo(end);
}

} // namespace

void decodeSamples(const std::uint8_t* in, std::size_t count, bool bdf, std::int32_t* out)
{
    if (bdf)
        core::widenInt24Le(in, count, out);
    else
        core::widenInt16Le(in, count, out);
}

void EdfRecording::decode(std::size_t channel, std::size_t block, const std::uint8_t* bytes, std::size_t count,
                          std::int32_t* out) const
{
    decodeSamples(bytes, count, m_header.bdf, out);
    const EdfSignal& signal = m_header.signals[m_signalOf[channel]];
    // The declared range in either order (a swapped minimum and maximum is read as given, with its own warning).
    const std::int32_t first = std::min(signal.digitalMin, signal.digitalMax);
    const std::int32_t last = std::max(signal.digitalMin, signal.digitalMax);
    if (core::allWithin(out, count, first, last)) return;
    std::int32_t low = first, high = last;
    for (std::size_t i = 0; i < count; ++i) low = std::min(low, out[i]), high = std::max(high, out[i]);
    std::lock_guard lock(m_warningsMutex);
    if (!m_outOfRange.insert(channel).second) return;
    const std::int32_t outside = low < first ? low : high;
    m_warnings.push_back(m_info.path + ": signal " + std::to_string(m_signalOf[channel] + 1) + " (\"" + signal.label +
                         "\"): sample " + std::to_string(outside) + " in data record " +
                         std::to_string(recordOf(block)) + " lies outside the digital range [" + std::to_string(first) +
                         ", " + std::to_string(last) +
                         "] its header declares: the range or the samples are damaged (values kept as stored)");
}

std::vector<std::string> EdfRecording::takeWarnings()
{
    std::lock_guard lock(m_warningsMutex);
    return std::exchange(m_warnings, {});
}

std::uint64_t EdfRecording::recordOffset(std::size_t block) const
{
    return static_cast<std::uint64_t>(m_header.headerBytes) +
           static_cast<std::uint64_t>(recordOf(block)) * m_header.recordBytes;
}

// Blocks any slice needs, grouped into runs of file-adjacent records of at most kJobBytes (one record at least).
std::vector<EdfRecording::Job> EdfRecording::planJobs(std::span<const std::pair<std::size_t, std::size_t>> ranges) const
{
    std::vector<std::pair<std::size_t, std::size_t>> sorted(ranges.begin(), ranges.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<Job> jobs;
    std::size_t covered = 0;
    const std::size_t perJob = std::max<std::size_t>(1, kJobBytes / std::max<std::size_t>(1, m_header.recordBytes));
    for (const auto& [from, to] : sorted) {
        for (std::size_t b = std::max(from, covered); b < to; ++b) {
            Job& last = jobs.empty() ? jobs.emplace_back(Job{b, b}) : jobs.back();
            const bool extends = last.endBlock == b && b > last.firstBlock && recordOf(b) == recordOf(b - 1) + 1 &&
                                 b - last.firstBlock < perJob;
            if (last.endBlock == last.firstBlock || extends)
                last.endBlock = b + 1;
            else
                jobs.push_back(Job{b, b + 1});
        }
        covered = std::max(covered, to);
    }
    return jobs;
}

// A job whose slices want under a quarter of each record reads each slice's bytes of each record on its own
// (one channel of 64 reads 1/64 of the file); otherwise the whole run of records in one read.
core::Status EdfRecording::runJob(const Job& job, std::span<const core::RawSlice> slices,
                                  std::span<const std::pair<std::size_t, std::size_t>> ranges,
                                  std::vector<std::uint8_t>& buffer) const
{
    std::size_t wanted = 0; // bytes a record holds for the slices (a channel asked twice counts twice)
    for (const core::RawSlice& s : slices)
        wanted +=
            static_cast<std::size_t>(m_header.signals[m_signalOf[s.channel]].samplesPerRecord) * m_header.sampleBytes();
    const bool sparse = wanted * 4 < m_header.recordBytes;
    if (!sparse) {
        buffer.resize((job.endBlock - job.firstBlock) * m_header.recordBytes);
        LV_TRY(m_file->readAt(recordOffset(job.firstBlock), buffer));
    }
    for (std::size_t i = 0; i < slices.size(); ++i) {
        const core::RawSlice& s = slices[i];
        const EdfSignal& signal = m_header.signals[m_signalOf[s.channel]];
        const std::int64_t sliceEnd = s.firstSample + static_cast<std::int64_t>(s.out.size());
        for (std::size_t b = std::max(job.firstBlock, ranges[i].first); b < std::min(job.endBlock, ranges[i].second);
             ++b) {
            const core::BlockSpan span = this->span(s.channel, b);
            const std::int64_t from = std::max(span.first, s.firstSample);
            const std::int64_t to = std::min(span.first + span.count, sliceEnd);
            if (from >= to) continue;
            const std::size_t at =
                signal.offsetInRecord + static_cast<std::size_t>(from - span.first) * m_header.sampleBytes();
            const std::size_t count = static_cast<std::size_t>(to - from);
            const std::uint8_t* bytes = nullptr;
            if (sparse) {
                buffer.resize(count * m_header.sampleBytes());
                LV_TRY(m_file->readAt(recordOffset(b) + at, buffer));
                bytes = buffer.data();
            } else {
                bytes = buffer.data() + (b - job.firstBlock) * m_header.recordBytes + at;
            }
            decode(s.channel, b, bytes, count, s.out.data() + (from - s.firstSample));
        }
    }
    return {};
}

core::Status EdfRecording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    std::vector<std::pair<std::size_t, std::size_t>> ranges; // per slice: blocks [first, end) it touches
    for (const core::RawSlice& s : slices) {
        if (s.channel >= m_perRecord.size())
            return core::makeError(core::ErrorCode::InvalidArgument, "no channel number " + std::to_string(s.channel));
        const auto range = blocksTouching(s.channel, s.firstSample, s.firstSample + std::ssize(s.out));
        fillUncovered(s, range.first, range.second, [&](std::size_t b) { return span(s.channel, b); });
        ranges.push_back(range);
    }
    const std::vector<Job> jobs = planJobs(ranges);
    return core::runReadJobs(jobs.size(), control, [&](std::size_t j) {
        thread_local std::vector<std::uint8_t> buffer;
        return runJob(jobs[j], slices, ranges, buffer);
    });
}

core::Status EdfRecording::decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                                       const core::ReadControl&) const
{
    if (channel >= m_perRecord.size() || block >= m_blockCount)
        return core::makeError(core::ErrorCode::InvalidArgument, "no such block");
    const core::BlockSpan span = this->span(channel, block);
    if (out.size() < span.count)
        return core::makeError(core::ErrorCode::InvalidArgument, "the output is shorter than the block");
    const EdfSignal& signal = m_header.signals[m_signalOf[channel]];
    std::vector<std::uint8_t> bytes(span.count * m_header.sampleBytes());
    LV_TRY(m_file->readAt(recordOffset(block) + signal.offsetInRecord, bytes));
    decode(channel, block, bytes.data(), span.count, out.data());
    return {};
}

std::pair<std::size_t, std::size_t> EdfRecording::blocksTouching(std::size_t channel, std::int64_t first,
                                                                 std::int64_t end) const
{
    if (m_layout == Layout::Regular) {
        const std::int64_t n = m_perRecord[channel], count = static_cast<std::int64_t>(m_blockCount);
        const std::int64_t from = std::clamp<std::int64_t>(first < 0 ? 0 : first / n, 0, count);
        const std::int64_t to = std::clamp<std::int64_t>(end <= 0 ? 0 : (end + n - 1) / n, from, count);
        return {static_cast<std::size_t>(from), static_cast<std::size_t>(to)};
    }
    // Index searches over the blocks in time order (computed or listed spans alike).
    const auto search = [&](std::size_t lo, auto before) {
        std::size_t hi = m_blockCount;
        while (lo < hi) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (before(span(channel, mid)))
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    };
    const std::size_t a = search(0, [&](const core::BlockSpan& b) { return b.first + b.count <= first; });
    const std::size_t b = search(a, [&](const core::BlockSpan& s) { return s.first < end; });
    return {a, b};
}

std::span<const core::BlockSpan> EdfRecording::blocks(std::size_t channel) const
{
    if (channel >= m_perRecord.size()) return {};
    if (m_layout == Layout::Listed) return m_spans[channel];
    std::lock_guard lock(m_spansMutex);
    std::vector<core::BlockSpan>& spans = m_spans[channel];
    if (spans.empty())
        for (std::size_t b = 0; b < m_blockCount; ++b) spans.push_back(span(channel, b));
    return spans;
}

} // namespace lv::formats::edf
