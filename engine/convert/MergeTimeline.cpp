// Names of the merge modes and overlap policies.
#include "convert/MergeTimeline.h"

namespace lv::convert {

const char* mergeModeName(MergeMode mode) { return mode == MergeMode::Stack ? "stack" : "concat"; }

const char* overlapPolicyName(OverlapPolicy policy)
{
    switch (policy) {
    case OverlapPolicy::Error:
        return "error";
    case OverlapPolicy::First:
        return "first";
    case OverlapPolicy::Last:
        return "last";
    }
    return "";
}

core::Result<std::string> mergePartName(const core::RecordingInfo& part, std::size_t index, const std::string& doing)
{
    std::string name = part.path.empty() ? "part " + std::to_string(index + 1) : part.path;
    if (!part.timesKnown)
        return core::makeError(core::ErrorCode::Unsupported,
                               "its times are relative to its start (the level-2 password would give them); " + doing +
                                   " needs true times",
                               name);
    return name;
}

} // namespace lv::convert
