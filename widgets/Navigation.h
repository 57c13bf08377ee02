// Where "next" and "previous" go: the first time of a sorted list strictly after (or before) a reference time,
// and the page past a pause.
#pragma once

#include "core/Time.h"

#include <optional>
#include <vector>

namespace lv::widgets {

// direction > 0: the first of `sorted` after `from`; otherwise the last before it. Nothing when there is none.
std::optional<core::Uutc> nextTime(const std::vector<core::Uutc>& sorted, core::Uutc from, int direction);

// Paging that skips pauses: a `page` that lies wholly inside one of `gaps` (sorted, disjoint, half-open) moves to
// the data past it, starting where the gap ends (direction > 0) or ending where it starts; otherwise `page`.
core::TimeRange skipGap(core::TimeRange page, const std::vector<core::TimeRange>& gaps, int direction);

} // namespace lv::widgets
