// MDF 4 events (EV blocks from the header's event list): markers, triggers, interrupts; begin/end pairs as ranges.
#pragma once

#include "core/Error.h"
#include "formats/mdf4/Mdf4Structure.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lv::formats::mdf4 {

struct Event {
    std::uint8_t type = 0;      // ev_type: 0 recording, 1 recording interrupt, 2 acquisition interrupt, 3 start
                                // recording trigger, 4 stop recording trigger, 5 trigger, 6 marker
    std::uint8_t syncType = 0;  // ev_sync_type: 1 time (s), 2 angle (rad), 3 distance (m), 4 index
    std::uint8_t rangeType = 0; // ev_range_type: 0 point, 1 begin of a range, 2 end of a range
    std::uint8_t cause = 0;     // ev_cause: 0 other, 1 error, 2 tool, 3 script, 4 user
    std::uint8_t flags = 0;
    std::int64_t syncBase = 0;
    double syncFactor = 0;
    double value = 0;    // syncBase * syncFactor: for time, seconds after the header's start time
    std::string name;    // ev_tx_name
    std::string comment; // ev_md_comment: the text of its <TX> element (or the plain TX)
    std::uint32_t scopeCount = 0;
    std::vector<std::uint64_t> scope; // ev_scope: the CN or CG blocks the event applies to (none: the whole file)
    std::uint64_t parent = 0;         // ev_ev_parent
    std::uint64_t range = 0;          // ev_ev_range: for a range end, the event that begins the range
    std::uint64_t offset = 0;

    bool isRangeBegin() const { return rangeType == 1; }
    bool isRangeEnd() const { return rangeType == 2; }
};

// The events of the file in list order (empty without an event list). A loop in the list, a link outside the file
// or a block too short is Corrupt, naming the block.
core::Result<std::vector<Event>> readEvents(const io::ByteSource& file, const Structure& structure);

// An event as one annotation: a point (duration 0), or a range from a begin event to the end event that links back
// to it (ev_ev_range); a begin or end without its partner stays a point.
struct EventSpan {
    std::size_t event = 0; // the point or the begin event, an index into the events
    double start = 0;
    double duration = 0;
};
std::vector<EventSpan> eventSpans(const std::vector<Event>& events);

// mdf-check's words: "marker", "acquisition_interrupt", ...; "range_begin"; "tool"; "time" (the number for an
// undefined value).
std::string eventTypeName(std::uint8_t type);
std::string eventRangeName(std::uint8_t rangeType);
std::string eventCauseName(std::uint8_t cause);
std::string eventSyncName(std::uint8_t syncType);

} // namespace lv::formats::mdf4
