// A time typed in a dialog: seconds from the recording's start, a clock time (hh:mm[:ss], on the start's day or
// the first day after it where it falls at or after the start, UTC; "N hh:mm[:ss]" on the N-th day after the
// start's, as EDFbrowser reads "1 00:57:50" for the second day), a date and time ("2025-01-01 10:00:00", UTC
// unless it gives an offset), ISO 8601, "+SECONDS" or integer uUTC (core::parseTimeArgument).
#pragma once

#include "core/Error.h"
#include "core/Time.h"

#include <QString>

namespace lv::widgets {

core::Result<core::Uutc> parseTimeEntry(const QString& text, core::Uutc start);

} // namespace lv::widgets
