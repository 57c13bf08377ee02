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

} // namespace lv::convert
