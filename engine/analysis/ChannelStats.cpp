// Integer accumulation (int64 sums, 128-bit sums of squares) so that order and threads never change a result.
#include "analysis/ChannelStats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace lv::analysis {

namespace {

constexpr std::int64_t kSamplesPerChunk = 1 << 22; // across all channels

struct Accumulator {
    std::int64_t count = 0;
    std::int64_t missing = 0;
    __int128 sum = 0;
    __int128 sumSquares = 0;
    std::int32_t minimum = std::numeric_limits<std::int32_t>::max();
    std::int32_t maximum = std::numeric_limits<std::int32_t>::min();

    void add(std::span<const std::int32_t> values)
    {
        for (const std::int32_t v : values) {
            if (v == core::kNoSample) {
                ++missing;
                continue;
            }
            ++count;
            sum += v;
            sumSquares += static_cast<__int128>(static_cast<std::int64_t>(v) * v);
            minimum = std::min(minimum, v);
            maximum = std::max(maximum, v);
        }
    }
};

// Grid points of the channel's gaps inside [first, first + count), and the gaps' durations in the range.
void countGaps(const core::ChannelInfo& ch, core::TimeRange range, ChannelStats& s, std::int64_t& gapPoints)
{
    for (const core::TimeRange& g : ch.gaps) {
        const core::TimeRange inside{std::max(g.start, range.start), std::min(g.end, range.end)};
        if (inside.empty()) continue;
        ++s.gaps;
        s.gapDurationUs += inside.duration();
        if (!ch.irregular) gapPoints += core::sampleSpan(ch, inside).count; // irregular: no points in a gap
    }
}

void finish(const Accumulator& a, double factor, double offset, ChannelStats& s)
{
    s.samples = a.count;
    if (a.count == 0) {
        s.minimum = s.maximum = s.mean = s.standardDeviation = std::nan("");
        return;
    }
    s.minimum = a.minimum * factor + offset;
    s.maximum = a.maximum * factor + offset;
    if (factor < 0) std::swap(s.minimum, s.maximum); // an inverted scale (EDF allows one)
    s.mean = static_cast<double>(static_cast<long double>(a.sum) / a.count) * factor + offset;
    if (a.count > 1) {
        const __int128 n = a.count;
        const __int128 spread = n * a.sumSquares - a.sum * a.sum; // exact: n^2 * population variance
        const long double variance = static_cast<long double>(spread) / (static_cast<long double>(n) * (n - 1));
        s.standardDeviation = static_cast<double>(std::sqrt(variance)) * std::abs(factor);
    }
}

} // namespace

core::Result<std::vector<ChannelStats>> computeStats(core::Recording& recording,
                                                     const std::vector<std::size_t>& channels, core::TimeRange range,
                                                     const core::ReadControl& control)
{
    const core::RecordingInfo& info = recording.info();
    std::vector<Accumulator> acc(channels.size());
    std::vector<core::SampleSpan> spans;
    std::int64_t longest = 0, total = 0;
    for (std::size_t c : channels) {
        if (c >= info.channels.size())
            return core::makeError(core::ErrorCode::InvalidArgument, "no channel number " + std::to_string(c));
        auto span = recording.samplesIn(c, range);
        if (!span) return span.error();
        spans.push_back(*span);
        longest = std::max(longest, spans.back().count);
        total += spans.back().count;
    }
    const std::int64_t step = std::max<std::int64_t>(1, kSamplesPerChunk / std::max<std::int64_t>(1, channels.size()));
    std::vector<std::vector<std::int32_t>> buffers(channels.size());
    std::int64_t done = 0;
    for (std::int64_t at = 0; at < longest; at += step) {
        std::vector<core::RawSlice> slices;
        for (std::size_t i = 0; i < channels.size(); ++i) {
            const std::int64_t n = std::clamp<std::int64_t>(spans[i].count - at, 0, step);
            buffers[i].resize(static_cast<std::size_t>(n));
            if (n > 0) slices.push_back({channels[i], spans[i].first + at, buffers[i]});
        }
        core::ReadControl chunkControl = control;
        chunkControl.progress = nullptr;
        LV_TRY(recording.readRaw(slices, chunkControl));
        for (std::size_t i = 0; i < channels.size(); ++i) acc[i].add(buffers[i]);
        for (const core::RawSlice& s : slices) done += static_cast<std::int64_t>(s.out.size());
        if (control.progress) control.progress(static_cast<std::uint64_t>(done), static_cast<std::uint64_t>(total));
        if (control.cancel && control.cancel->cancelled())
            return core::makeError(core::ErrorCode::Cancelled, "statistics cancelled");
    }
    std::vector<ChannelStats> result(channels.size());
    for (std::size_t i = 0; i < channels.size(); ++i) {
        const core::ChannelInfo& ch = info.channels[channels[i]];
        ChannelStats& s = result[i];
        s.channel = channels[i];
        std::int64_t gapPoints = 0;
        countGaps(ch, range, s, gapPoints);
        s.nanCount = acc[i].missing - gapPoints;
        finish(acc[i], ch.conversionFactor, ch.offset, s);
    }
    return result;
}

} // namespace lv::analysis
