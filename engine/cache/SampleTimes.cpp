// Sample spans and time spans: the grid's arithmetic, or bisection and lookups over an irregular channel's times.
#include "cache/SampleTimes.h"

#include "core/Time.h"

#include <string>

namespace lv::cache {

namespace {

core::Error noTimes(const core::ChannelInfo& info)
{
    return core::makeError(core::ErrorCode::Unsupported,
                           "the times of irregular channel " + info.name + " are not available for viewing");
}

} // namespace

core::Result<core::SampleSpan> samplesOf(core::Recording* times, const core::ChannelInfo& info, std::size_t channel,
                                         core::TimeRange range)
{
    if (!info.irregular) return core::sampleSpan(info, range);
    if (!times) return noTimes(info);
    if (range.end <= range.start) return core::SampleSpan{};
    return times->samplesIn(channel, range);
}

core::Result<core::TimeRange> timeSpanOf(core::Recording* times, const core::ChannelInfo& info, std::size_t channel,
                                         std::int64_t first, std::int64_t end)
{
    if (!info.irregular) return core::TimeRange{info.grid().timeOf(first), info.grid().timeOf(end)};
    if (!times) return noTimes(info);
    if (end <= first) return core::TimeRange{};
    std::int64_t ns[2] = {0, 0};
    const core::TimeSlice slices[2] = {{channel, first, std::span(ns, 1)}, {channel, end - 1, std::span(ns + 1, 1)}};
    LV_TRY(times->readTimes(slices, {}));
    return core::TimeRange{core::nsToUs(ns[0]), core::nsToUs(ns[1]) + 1};
}

} // namespace lv::cache
