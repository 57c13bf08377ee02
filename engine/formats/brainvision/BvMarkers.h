// A BrainVision marker file (.vmrk): each marker's type, description, position and size in data points, channel
// and, for "New Segment" markers, the date of the segment's first sample.
#pragma once

#include "core/Error.h"
#include "core/Time.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::brainvision {

struct BvMarker {
    std::string type;               // "Stimulus", "Response", "Comment", "New Segment", ...
    std::string description;        // "S  1"
    std::int64_t position = 0;      // data point of the marker, 1-based
    std::int64_t size = 1;          // data points it lasts (1: a moment)
    int channel = 0;                // 1-based channel it concerns, 0: all channels
    std::optional<core::Uutc> date; // the 20-digit date (YYYYMMDDhhmmssuuuuuu) of a "New Segment" marker
    int line = 0;

    bool newSegment() const;
};

// Parses a marker file's bytes. A marker line that cannot be read (no position, a position below 1, an unreadable
// date) is left out with a warning naming its line; a file that is not a marker file is an error.
core::Result<std::vector<BvMarker>> parseMarkers(std::span<const std::uint8_t> bytes, const std::string& path,
                                                 std::vector<std::string>& warnings);

// "YYYYMMDDhhmmssuuuuuu" as uUTC (BrainVision dates carry no zone: read as UTC, as MNE does); nullopt when it is
// not 20 digits of a valid date and time.
std::optional<core::Uutc> parseMarkerDate(std::string_view text);
// The inverse.
std::string formatMarkerDate(core::Uutc t);

} // namespace lv::formats::brainvision
