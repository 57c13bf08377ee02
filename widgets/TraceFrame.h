// What the plot draws for one view request: per channel points (min/max per column, or samples) and NaN runs.
#pragma once

#include "core/RecordingInfo.h"
#include "core/Time.h"
#include "filter/FilterSpec.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lv::widgets {

// How a channel's stored counts are drawn: as values, or (a BioSemi Status channel) as the trigger code in the low
// 16 bits or the status bits 16-23 (new epoch, speed, CMS in range, battery low, MK2) shifted down.
enum class BitView : std::uint8_t { Value, Trigger, Status };

// The code a count shows in `view` (Value: the count itself).
constexpr std::int32_t bitsOf(BitView view, std::int32_t count)
{
    const auto bits = static_cast<std::uint32_t>(count);
    switch (view) {
    case BitView::Trigger:
        return static_cast<std::int32_t>(bits & 0xFFFFu);
    case BitView::Status:
        return static_cast<std::int32_t>((bits >> 16) & 0xFFu);
    case BitView::Value:
        break;
    }
    return count;
}

// "value", "trigger", "status" (remembered settings) and back; Value for any other text.
constexpr const char* bitViewName(BitView view)
{
    return view == BitView::Trigger ? "trigger" : view == BitView::Status ? "status" : "value";
}
inline BitView bitViewFromName(std::string_view name)
{
    return name == "trigger" ? BitView::Trigger : name == "status" ? BitView::Status : BitView::Value;
}

// How irregular channels (samples at their own times) are drawn: steps (each value held until the next sample) or
// points, for all or chosen per channel, and the longest pause a step bridges, in median intervals (1 / fs).
struct IrregularDrawing {
    bool points = false;                       // every channel not in pointsOf
    std::map<std::size_t, bool> pointsOf = {}; // channel -> drawn as points (true) or steps (false)
    double maxGapFactor = core::kIrregularGapFactor;
    bool operator==(const IrregularDrawing&) const = default;

    bool pointsFor(std::size_t channel) const
    {
        const auto it = pointsOf.find(channel);
        return it != pointsOf.end() ? it->second : points;
    }
};

class FilteredTraceCache;
struct MontageLanes;
struct LaneEnvelopes;

struct FrameRequest {
    std::uint64_t id = 0;
    core::TimeRange range;
    std::vector<std::size_t> channels;
    std::size_t columns = 0;
    bool exact = false; // false: coarse, from stored block extrema only (never decodes)
    double smear = 0.0; // for exact envelopes (0: sample-exact; 0.5: display-exact, see cache::EnvelopeRequest)
    std::map<std::size_t, BitView> bitViews = {}; // channels drawn as bits (from every sample: never from extrema)
    IrregularDrawing irregular = {};              // how irregular channels are drawn
    std::map<std::size_t, filter::FilterSpec> filters = {}; // channels drawn filtered (FilteredTrace)
    std::shared_ptr<FilteredTraceCache> filtered = {};      // their traces of recent pages (and of montage lanes)
    std::shared_ptr<const MontageLanes> montage = {};       // channels from its `first` on are its derivations
    std::shared_ptr<const LaneEnvelopes> envelopes = {};    // the lanes' envelopes for wide views (when computed)
};

struct ChannelTrace {
    std::size_t channel = 0;
    std::vector<double> x;                    // seconds from the recording's start; sorted
    std::vector<double> y;                    // physical values; NaN breaks the line (at every gap and NaN run)
    double low = 0.0;                         // robust extent of the values (1st and 99th percentile), for auto-scale
    double high = -1.0;                       // low > high: no data
    std::vector<core::TimeRange> nanRuns;     // NaN samples found inside blocks, outside every gap (when decoded)
    std::vector<core::TimeRange> damagedRuns; // blocks that failed their checks (CRC): drawn as damaged, no data
    bool points = false; // drawn as points (an irregular channel): a mark at every point, runs join min and max only
};

struct TraceFrame {
    std::uint64_t id = 0;
    core::TimeRange range;
    std::size_t columns = 0;
    bool exact = false;
    bool samples = false; // one point per sample (zoomed in) instead of min/max per column
    std::vector<ChannelTrace> traces;
    std::string error;               // empty when every channel was computed
    std::vector<std::string> damage; // blocks found damaged while this frame was built ("file: problem (at byte N)")
};

using FramePtr = std::shared_ptr<const TraceFrame>;

} // namespace lv::widgets
