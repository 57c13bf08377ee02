// Channels by name and a time range by text, resolved against one recording: what convert, merge and batch select.
#pragma once

#include "core/Error.h"
#include "core/RecordingInfo.h"

#include <string>
#include <vector>

namespace lv::convert {

struct SelectionRequest {
    std::string channels; // comma-separated names; empty: all
    std::string start;    // time argument (uUTC, ISO 8601, +seconds); empty: the recording's start
    std::string end;      // exclusive; empty: the recording's end
};

struct Selection {
    std::vector<std::size_t> channels;
    core::TimeRange range; // half-open, uUTC
};

// InvalidArgument for an unknown channel name (the known ones listed) or an end before the start; Corrupt (naming
// the file) for a recording that ends before it starts.
core::Result<Selection> resolveSelection(const core::RecordingInfo& info, const SelectionRequest& request);

} // namespace lv::convert
