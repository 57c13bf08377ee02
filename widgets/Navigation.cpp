// Binary search on sorted times.
#include "Navigation.h"

#include <algorithm>

namespace lv::widgets {

std::optional<core::Uutc> nextTime(const std::vector<core::Uutc>& sorted, core::Uutc from, int direction)
{
    if (direction > 0) {
        const auto it = std::upper_bound(sorted.begin(), sorted.end(), from);
        if (it == sorted.end()) return std::nullopt;
        return *it;
    }
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), from);
    if (it == sorted.begin()) return std::nullopt;
    return *std::prev(it);
}

} // namespace lv::widgets
