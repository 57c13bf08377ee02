// Where "next" and "previous" go: the first time of a sorted list strictly after (or before) a reference time.
#pragma once

#include "core/Time.h"

#include <optional>
#include <vector>

namespace lv::widgets {

// direction > 0: the first of `sorted` after `from`; otherwise the last before it. Nothing when there is none.
std::optional<core::Uutc> nextTime(const std::vector<core::Uutc>& sorted, core::Uutc from, int direction);

} // namespace lv::widgets
