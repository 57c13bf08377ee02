// Look-ups on the format-neutral recording description.
#include "core/RecordingInfo.h"

#include "core/TimeFormat.h"

#include <chrono>

namespace lv::core {

int RecordingInfo::channelIndex(const std::string& name) const
{
    for (std::size_t i = 0; i < channels.size(); ++i)
        if (channels[i].name == name) return static_cast<int>(i);
    return -1;
}

std::optional<std::string> futureStartWarning(const RecordingInfo& info, Uutc now, const std::string& where)
{
    constexpr Uutc kDay = 86'400'000'000;
    if (!info.timesKnown || info.channels.empty() || info.start <= now + kDay) return std::nullopt;
    return "the recording starts at " + formatIso(info.start) + ", after the present (" + formatIso(now) +
           "): " + where + " is damaged or wrong";
}

Uutc nowUutc()
{
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace lv::core
