// Binary search on sorted times and gaps.
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

core::TimeRange skipGap(core::TimeRange page, const std::vector<core::TimeRange>& gaps, int direction)
{
    // The last gap starting at or before the page's start is the only one that can hold it.
    const auto after = std::upper_bound(gaps.begin(), gaps.end(), page.start,
                                        [](core::Uutc t, const core::TimeRange& g) { return t < g.start; });
    if (after == gaps.begin()) return page;
    const core::TimeRange& gap = *std::prev(after);
    if (page.end > gap.end) return page;
    const core::Uutc length = page.duration();
    return direction > 0 ? core::TimeRange{gap.end, gap.end + length} : core::TimeRange{gap.start - length, gap.start};
}

} // namespace lv::widgets
