// Look-ups on the format-neutral recording description.
#include "core/RecordingInfo.h"

namespace lv::core {

int RecordingInfo::channelIndex(const std::string& name) const
{
    for (std::size_t i = 0; i < channels.size(); ++i)
        if (channels[i].name == name) return static_cast<int>(i);
    return -1;
}

} // namespace lv::core
