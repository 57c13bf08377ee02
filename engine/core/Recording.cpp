// Time-range reads on top of Recording::readRaw.
#include "core/Recording.h"

#include "core/SampleKernels.h"

#include <algorithm>
#include <cmath>

namespace lv::core {

SampleSpan sampleSpan(const ChannelInfo& channel, TimeRange range)
{
    const SampleGrid grid = channel.grid();
    const std::int64_t first = std::max<std::int64_t>(0, grid.firstIndexAtOrAfter(range.start));
    const std::int64_t last = std::min<std::int64_t>(channel.gridLength, grid.firstIndexAtOrAfter(range.end));
    return SampleSpan{first, std::max<std::int64_t>(0, last - first)};
}

Status Recording::readTimes(std::span<const TimeSlice> slices, const ReadControl& /*control*/)
{
    const RecordingInfo& recording = info();
    for (const TimeSlice& slice : slices) {
        if (slice.channel >= recording.channels.size())
            return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(slice.channel));
        const ChannelInfo& ch = recording.channels[slice.channel];
        if (ch.irregular)
            return makeError(ErrorCode::Unsupported,
                             "channel " + ch.name + " is irregular and its times cannot be read", recording.path);
        const SampleGrid grid = ch.grid();
        for (std::size_t i = 0; i < slice.outNs.size(); ++i)
            slice.outNs[i] = usToNs(grid.timeOf(slice.firstSample + static_cast<std::int64_t>(i)));
    }
    return {};
}

Result<SampleSpan> Recording::samplesIn(std::size_t channel, TimeRange range)
{
    const RecordingInfo& recording = info();
    if (channel >= recording.channels.size())
        return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(channel));
    const ChannelInfo& ch = recording.channels[channel];
    if (!ch.irregular) return sampleSpan(ch, range);
    // First sample whose time (ns) is >= t, by bisection.
    const auto firstAtOrAfter = [&](Uutc t) -> Result<std::int64_t> {
        std::int64_t lo = 0, hi = ch.sampleCount;
        const std::int64_t ns = usToNs(t);
        while (lo < hi) {
            const std::int64_t mid = lo + (hi - lo) / 2;
            std::int64_t at = 0;
            const TimeSlice slice{channel, mid, std::span(&at, 1)};
            LV_TRY(readTimes(std::span(&slice, 1), ReadControl{}));
            if (at < ns)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo;
    };
    auto first = firstAtOrAfter(range.start);
    if (!first) return first.error();
    auto last = firstAtOrAfter(range.end);
    if (!last) return last.error();
    return SampleSpan{*first, std::max<std::int64_t>(0, *last - *first)};
}

Result<TimedSamples> readTimed(Recording& recording, std::size_t channel, TimeRange range, const ReadControl& control)
{
    auto span = recording.samplesIn(channel, range);
    if (!span) return span.error();
    TimedSamples out;
    out.channel = channel;
    out.firstSample = span->first;
    out.timesNs.resize(static_cast<std::size_t>(span->count));
    out.raw.assign(static_cast<std::size_t>(span->count), kNoSample);
    const TimeSlice times{channel, span->first, out.timesNs};
    LV_TRY(recording.readTimes(std::span(&times, 1), control));
    const RawSlice raw{channel, span->first, out.raw};
    LV_TRY(recording.readRaw(std::span(&raw, 1), control));
    return out;
}

Status readEverySample(Recording& recording, const ReadControl& control)
{
    constexpr std::int64_t kSlice = std::int64_t{1} << 20;
    std::vector<std::int32_t> buffer;
    const RecordingInfo& info = recording.info();
    for (std::size_t c = 0; c < info.channels.size(); ++c)
        for (std::int64_t at = 0; at < info.channels[c].gridLength; at += kSlice) {
            if (control.cancel && control.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "cancelled");
            buffer.resize(static_cast<std::size_t>(std::min(kSlice, info.channels[c].gridLength - at)));
            const RawSlice slice{c, at, buffer};
            LV_TRY(recording.readRaw(std::span(&slice, 1), control));
        }
    return {};
}

Annotation damageAnnotation(const RecordingInfo& info, const DamagedBlock& block)
{
    Annotation a;
    a.type = "Damaged";
    a.text = "damaged block in " + block.path + " at byte " + std::to_string(block.offset) + ", samples missing";
    if (block.channel < info.channels.size()) {
        const ChannelInfo& ch = info.channels[block.channel];
        const SampleGrid grid = ch.grid();
        a.time = grid.timeOf(block.firstSample);
        a.durationUs = grid.timeOf(block.firstSample + block.sampleCount) - a.time;
        a.channel = ch.name;
    }
    return a;
}

Result<std::vector<ChannelSamples>> readRange(Recording& recording, std::span<const std::size_t> channels,
                                              TimeRange range, const ReadControl& control)
{
    const RecordingInfo& info = recording.info();
    std::vector<ChannelSamples> result(channels.size());
    std::vector<RawSlice> slices;
    slices.reserve(channels.size());
    for (std::size_t i = 0; i < channels.size(); ++i) {
        if (channels[i] >= info.channels.size())
            return makeError(ErrorCode::InvalidArgument, "no channel number " + std::to_string(channels[i]));
        auto found = recording.samplesIn(channels[i], range);
        if (!found) return found.error();
        const SampleSpan span = *found;
        result[i].channel = channels[i];
        result[i].firstSample = span.first;
        result[i].raw.assign(static_cast<std::size_t>(span.count), kNoSample);
        slices.push_back(RawSlice{channels[i], span.first, result[i].raw});
    }
    LV_TRY(recording.readRaw(slices, control));
    return result;
}

std::vector<double> toPhysical(const ChannelSamples& samples, double conversionFactor, double offset)
{
    std::vector<double> out(samples.raw.size());
    countsToPhysical(samples.raw.data(), samples.raw.size(), conversionFactor, offset, out.data());
    return out;
}

} // namespace lv::core
