// CSV export of channels on a common sampling grid, written atomically, with progress and cancellation.
#pragma once

#include "core/Recording.h"

#include <string>
#include <vector>

namespace lv::convert {

enum class TimeColumn { Seconds, Iso, Uutc };

struct CsvOptions {
    std::vector<std::size_t> channels; // all when empty
    core::TimeRange range;             // half-open, uUTC; rows whose time lies in it
    bool raw = false;                  // stored integers instead of physical values
    TimeColumn time = TimeColumn::Seconds;
    bool fillGaps = false; // keep rows where every channel lacks a sample
};

// Writes `outPath` (temporary file + rename). Channels must share one sampling rate.
// Seconds are counted from the recording's start.
core::Status exportCsv(core::Recording& recording, const CsvOptions& options, const std::string& outPath,
                       const core::ReadControl& control);

} // namespace lv::convert
