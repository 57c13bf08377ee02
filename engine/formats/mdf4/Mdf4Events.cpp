// EV blocks read along the header's event list (loop-guarded) and paired into ranges for annotations.
#include "formats/mdf4/Mdf4Events.h"

#include "core/LittleEndian.h"
#include "formats/mdf4/Mdf4Block.h"

#include <map>
#include <set>

namespace lv::formats::mdf4 {

namespace le = core::le;

namespace {

constexpr std::size_t kMaxEvents = 10'000'000;

template <std::size_t N>
std::string nameOf(const char* const (&names)[N], std::uint8_t v)
{
    return v < N ? names[v] : std::to_string(v);
}

} // namespace

core::Result<std::vector<Event>> readEvents(const io::ByteSource& file, const Structure& structure)
{
    std::vector<Event> events;
    std::set<std::uint64_t> seen;
    for (std::uint64_t at = structure.eventLink; at != 0;) {
        if (!seen.insert(at).second || seen.size() > kMaxEvents)
            return corrupt(file, at, "the list of events loops back or links a block twice");
        auto b = readBlock(file, at, {"EV"});
        if (!b) return b.error();
        LV_TRY(needLinks(file, *b, 5));
        LV_TRY(needData(file, *b, 32));
        Event e;
        e.offset = at;
        e.type = le::u8(b->data, 0);
        e.syncType = le::u8(b->data, 1);
        e.rangeType = le::u8(b->data, 2);
        e.cause = le::u8(b->data, 3);
        e.flags = le::u8(b->data, 4);
        e.scopeCount = le::u32(b->data, 8);
        e.syncBase = static_cast<std::int64_t>(le::u64(b->data, 16));
        e.syncFactor = le::f64(b->data, 24);
        e.value = static_cast<double>(e.syncBase) * e.syncFactor;
        for (std::uint64_t i = 0; i < e.scopeCount && 5 + i < b->links.size(); ++i) e.scope.push_back(b->links[5 + i]);
        e.parent = b->link(1);
        e.range = b->link(2);
        auto name = readRawText(file, b->link(3));
        if (!name) return name.error();
        e.name = std::move(*name);
        auto comment = readText(file, b->link(4));
        if (!comment) return comment.error();
        e.comment = std::move(*comment);
        events.push_back(std::move(e));
        at = b->link(0);
    }
    return events;
}

std::vector<EventSpan> eventSpans(const std::vector<Event>& events)
{
    std::map<std::uint64_t, std::size_t> byOffset;
    for (std::size_t i = 0; i < events.size(); ++i) byOffset[events[i].offset] = i;
    std::map<std::size_t, std::size_t> endOf; // begin index -> end index
    std::set<std::size_t> pairedEnds;
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (!events[i].isRangeEnd()) continue;
        const auto begin = byOffset.find(events[i].range);
        if (begin == byOffset.end() || !events[begin->second].isRangeBegin() || endOf.count(begin->second)) continue;
        endOf[begin->second] = i;
        pairedEnds.insert(i);
    }
    std::vector<EventSpan> spans;
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (pairedEnds.count(i)) continue;
        EventSpan s{i, events[i].value, 0};
        if (const auto end = endOf.find(i); end != endOf.end()) s.duration = events[end->second].value - s.start;
        spans.push_back(s);
    }
    return spans;
}

std::string eventTypeName(std::uint8_t type)
{
    static constexpr const char* kNames[] = {"recording",
                                             "recording_interrupt",
                                             "acquisition_interrupt",
                                             "start_recording_trigger",
                                             "stop_recording_trigger",
                                             "trigger",
                                             "marker"};
    return nameOf(kNames, type);
}

std::string eventRangeName(std::uint8_t rangeType)
{
    static constexpr const char* kNames[] = {"point", "range_begin", "range_end"};
    return nameOf(kNames, rangeType);
}

std::string eventCauseName(std::uint8_t cause)
{
    static constexpr const char* kNames[] = {"other", "error", "tool", "script", "user"};
    return nameOf(kNames, cause);
}

std::string eventSyncName(std::uint8_t syncType)
{
    static constexpr const char* kNames[] = {"none", "time", "angle", "distance", "index"};
    return nameOf(kNames, syncType);
}

} // namespace lv::formats::mdf4
