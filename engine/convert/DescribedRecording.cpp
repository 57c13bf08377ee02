// Times of a described recording: the inner recording's, moved by the description's shift.
#include "convert/DescribedRecording.h"

namespace lv::convert {

core::Status DescribedRecording::readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control)
{
    for (const core::TimeSlice& slice : slices) {
        if (slice.channel >= m_info.channels.size() || !m_info.channels[slice.channel].irregular) {
            LV_TRY(Recording::readTimes(std::span(&slice, 1), control));
            continue;
        }
        LV_TRY(m_inner->readTimes(std::span(&slice, 1), control));
        const std::int64_t shiftNs = core::usToNs(m_shiftUs);
        for (std::int64_t& t : slice.outNs) t = core::saturatingAdd(t, shiftNs);
    }
    return {};
}

core::Result<core::SampleSpan> DescribedRecording::samplesIn(std::size_t channel, core::TimeRange range)
{
    if (channel >= m_info.channels.size() || !m_info.channels[channel].irregular)
        return Recording::samplesIn(channel, range);
    const core::TimeRange inner{core::saturatingAdd(range.start, -m_shiftUs),
                                core::saturatingAdd(range.end, -m_shiftUs)};
    return m_inner->samplesIn(channel, inner);
}

} // namespace lv::convert
