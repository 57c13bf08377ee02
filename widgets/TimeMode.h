// How times are shown: wall clock in UTC or local time, or relative to the recording's start.
#pragma once

namespace lv::widgets {

enum class TimeMode { Utc = 0, Local = 1, Relative = 2 };

} // namespace lv::widgets
