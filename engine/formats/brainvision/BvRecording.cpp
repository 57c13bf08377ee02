// Reads of BrainVision data: each slice cut at the runs of the grid into pieces of file data points; a multiplexed
// file's frames read once for all the slices that want them, a vectorized file's channel read where it lies; values
// widened to counts (floats divided by the channel's step, NaN missing).
#include "formats/brainvision/BvRecording.h"

#include "core/LittleEndian.h"
#include "core/ReadJobs.h"

#include <algorithm>
#include <cmath>

namespace lv::formats::brainvision {

namespace {

constexpr std::int64_t kJobBytes = 1 << 20;
constexpr std::size_t kTileBytes = 16 << 10; // frames decoded together: within L1

} // namespace

std::uint64_t BvRecording::offsetOf(std::size_t channel, std::int64_t point) const
{
    const std::uint64_t bytes = m_header.sampleBytes();
    const std::uint64_t n = m_header.channels.size();
    if (m_header.orientation == Orientation::Multiplexed)
        return (static_cast<std::uint64_t>(point) * n + channel) * bytes;
    return (channel * static_cast<std::uint64_t>(m_points) + static_cast<std::uint64_t>(point)) * bytes;
}

void BvRecording::decode(std::size_t channel, const std::uint8_t* in, std::size_t stride, std::size_t count,
                         std::int32_t* out) const
{
    switch (m_header.format) {
    case BinaryFormat::Int16:
        for (std::size_t i = 0; i < count; ++i) out[i] = core::le::load<std::int16_t>(in + i * stride);
        return;
    case BinaryFormat::Int32:
        for (std::size_t i = 0; i < count; ++i) out[i] = core::le::load<std::int32_t>(in + i * stride);
        return;
    case BinaryFormat::Float32:
        break;
    }
    const double step = m_step[channel];
    bool outside = false;
    for (std::size_t i = 0; i < count; ++i) {
        const double v = std::nearbyint(core::le::load<float>(in + i * stride) / step);
        const bool fits = v > -2147483647.5 && v < 2147483647.5; // false for NaN and infinities too
        outside = outside || (!fits && !std::isnan(v));
        out[i] = fits ? static_cast<std::int32_t>(v) : core::kNoSample;
    }
    if (!outside) return;
    std::lock_guard lock(m_mutex);
    if (m_outOfRange.insert(channel).second)
        m_warnings.push_back(m_info.path + ": channel " + m_info.channels[channel].name +
                             ": values beyond 2^31 steps of its resolution (or infinite) are read as missing");
}

std::vector<std::string> BvRecording::takeWarnings()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_warnings, {});
}

// Each slice's grid samples that lie in a run, as file data points; the rest stays kNoSample.
std::vector<BvRecording::Piece> BvRecording::piecesOf(std::span<const core::RawSlice> slices) const
{
    // Data points a piece holds: at most kJobBytes of the file (a multiplexed point is a whole frame).
    const std::size_t pointBytes =
        m_header.sampleBytes() * (m_header.orientation == Orientation::Multiplexed ? m_header.channels.size() : 1);
    const std::int64_t perPiece = std::max<std::int64_t>(1, kJobBytes / static_cast<std::int64_t>(pointBytes));
    std::vector<Piece> pieces;
    for (std::size_t i = 0; i < slices.size(); ++i) {
        const core::RawSlice& s = slices[i];
        const std::int64_t end = s.firstSample + std::ssize(s.out);
        auto run = std::upper_bound(m_runs.begin(), m_runs.end(), s.firstSample,
                                    [](std::int64_t g, const Run& r) { return g < r.gridFirst; });
        if (run != m_runs.begin()) --run;
        for (; run != m_runs.end() && run->gridFirst < end; ++run) {
            const std::int64_t from = std::max(s.firstSample, run->gridFirst);
            const std::int64_t to = std::min(end, run->gridFirst + (run->end - run->first));
            for (std::int64_t at = from; at < to;) { // at most kJobBytes of file a piece
                const std::int64_t n = std::min(perPiece, to - at);
                pieces.push_back(
                    {i, run->first + (at - run->gridFirst), n, static_cast<std::size_t>(at - s.firstSample)});
                at += n;
            }
        }
    }
    return pieces;
}

// Pieces over the same data points: one read of the frames (multiplexed), or each piece's own bytes (vectorized).
core::Status BvRecording::readPieces(std::span<const Piece> pieces, std::span<const core::RawSlice> slices,
                                     std::vector<std::uint8_t>& buffer) const
{
    const std::size_t bytes = m_header.sampleBytes();
    if (m_header.orientation == Orientation::Multiplexed) {
        const std::int64_t first = pieces.front().first;
        const std::int64_t end = pieces.front().first + pieces.front().count;
        const std::size_t frame = bytes * m_header.channels.size();
        buffer.resize(static_cast<std::size_t>(end - first) * frame);
        LV_TRY(m_data->readAt(offsetOf(0, first), buffer));
        // Tiles of frames that stay in L1 while every piece takes its channel out of them (the pieces of a job
        // cover the same frames).
        const auto count = static_cast<std::size_t>(end - first);
        const std::size_t tile = std::max<std::size_t>(16, kTileBytes / frame);
        for (std::size_t at = 0; at < count; at += tile) {
            const std::size_t n = std::min(tile, count - at);
            for (const Piece& p : pieces) {
                const core::RawSlice& s = slices[p.slice];
                decode(s.channel, buffer.data() + at * frame + s.channel * bytes, frame, n, s.out.data() + p.at + at);
            }
        }
        return {};
    }
    for (const Piece& p : pieces) {
        const core::RawSlice& s = slices[p.slice];
        buffer.resize(static_cast<std::size_t>(p.count) * bytes);
        LV_TRY(m_data->readAt(offsetOf(s.channel, p.first), buffer));
        decode(s.channel, buffer.data(), bytes, static_cast<std::size_t>(p.count), s.out.data() + p.at);
    }
    return {};
}

core::Status BvRecording::readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control)
{
    for (const core::RawSlice& s : slices) {
        if (s.channel >= m_info.channels.size())
            return core::makeError(core::ErrorCode::InvalidArgument, "no channel number " + std::to_string(s.channel));
        std::fill(s.out.begin(), s.out.end(), core::kNoSample);
    }
    std::vector<Piece> pieces = piecesOf(slices);
    // Jobs: pieces over the same data points together (multiplexed: one read serves them all), else one each.
    std::stable_sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
        return std::pair(a.first, a.count) < std::pair(b.first, b.count);
    });
    std::vector<std::pair<std::size_t, std::size_t>> jobs;
    const bool shared = m_header.orientation == Orientation::Multiplexed;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        const bool same = shared && !jobs.empty() && pieces[jobs.back().first].first == pieces[i].first &&
                          pieces[jobs.back().first].count == pieces[i].count;
        if (same)
            jobs.back().second = i + 1;
        else
            jobs.emplace_back(i, i + 1);
    }
    return core::runReadJobs(jobs.size(), control, [&](std::size_t j) {
        thread_local std::vector<std::uint8_t> buffer;
        return readPieces(std::span(pieces).subspan(jobs[j].first, jobs[j].second - jobs[j].first), slices, buffer);
    });
}

std::span<const core::BlockSpan> BvRecording::blocks(std::size_t channel) const
{
    if (channel >= m_info.channels.size()) return {};
    return m_blocks;
}

core::Result<std::shared_ptr<const std::vector<std::uint8_t>>> BvRecording::frames(std::int64_t first,
                                                                                   std::int64_t end) const
{
    {
        std::lock_guard lock(m_mutex);
        const auto want = static_cast<std::size_t>(end - first) * m_header.channels.size() * m_header.sampleBytes();
        if (m_framesFirst == first && m_frames && m_frames->size() == want) return m_frames;
    }
    auto bytes = std::make_shared<std::vector<std::uint8_t>>(static_cast<std::size_t>(end - first) *
                                                             m_header.channels.size() * m_header.sampleBytes());
    LV_TRY(m_data->readAt(offsetOf(0, first), *bytes));
    std::lock_guard lock(m_mutex);
    m_framesFirst = first;
    m_frames = bytes;
    return std::shared_ptr<const std::vector<std::uint8_t>>(std::move(bytes));
}

core::Status BvRecording::decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                                      const core::ReadControl&) const
{
    if (channel >= m_info.channels.size() || block >= m_blocks.size())
        return core::makeError(core::ErrorCode::InvalidArgument, "no such block");
    const core::BlockSpan& span = m_blocks[block];
    if (out.size() < span.count)
        return core::makeError(core::ErrorCode::InvalidArgument, "the output is shorter than the block");
    const std::int64_t first = m_blockPoint[block];
    const std::size_t bytes = m_header.sampleBytes();
    if (m_header.orientation == Orientation::Multiplexed) {
        auto f = frames(first, first + span.count);
        if (!f) return f.error();
        decode(channel, (*f)->data() + channel * bytes, bytes * m_header.channels.size(), span.count, out.data());
        return {};
    }
    std::vector<std::uint8_t> buffer(span.count * bytes);
    LV_TRY(m_data->readAt(offsetOf(channel, first), buffer));
    decode(channel, buffer.data(), bytes, span.count, out.data());
    return {};
}

} // namespace lv::formats::brainvision
