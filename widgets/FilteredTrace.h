// Computed traces: a montage lane's sums and display filtering. The page's samples (of every channel a lane sums)
// plus the filter's settling margins are read through the block cache, summed, filtered run by run between gaps
// (zero-phase unless causal), then drawn as samples or min/max per column; traces of recent pages are kept, so
// paging back and forth computes nothing twice. Never called on the UI thread.
#pragma once

#include "TraceFrame.h"

#include "view/ViewSession.h"

#include <cstddef>
#include <list>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>

namespace lv::widgets {

// Wider views than this many samples per channel are drawn unfiltered (the label says so), montage lanes not at all.
constexpr std::int64_t kFilterLimit = std::int64_t{1} << 22;

// Filtered traces of recent pages, shared by the frame threads: least recently used first out.
class FilteredTraceCache {
public:
    explicit FilteredTraceCache(std::size_t capacity = 512) : m_capacity(capacity) {}
    std::optional<ChannelTrace> find(const std::string& key);
    bool contains(const std::string& key) const; // not counted as a hit, not moved to the front
    void put(const std::string& key, const ChannelTrace& trace);
    std::size_t hits() const;

private:
    mutable std::mutex m_mutex;
    std::size_t m_capacity;
    std::size_t m_hits = 0;
    std::list<std::pair<std::string, ChannelTrace>> m_entries; // most recent first
    std::map<std::string, std::list<std::pair<std::string, ChannelTrace>>::iterator> m_index;
};

// A lane's filtered values, computed before the frame's traces: `values` start at grid sample `from`.
struct PreparedValues {
    std::int64_t from = 0;
    std::vector<double> values;
};
using PreparedLanes = std::map<std::size_t, PreparedValues>; // by channel (or lane)

// Physical values of recorded channels already read, by channel and span [from, to) of grid samples.
using ValueMemo = std::map<std::tuple<std::size_t, std::int64_t, std::int64_t>, std::vector<double>>;

// The physical values of grid samples [from, to) of a recorded channel, or of a lane of `montage` (the weighted sum
// of its channels' values); NaN where a sample (of any channel summed) is missing. The channels' values come from
// `memo` when it holds them and are kept there. False (and `error`) when a read failed.
bool laneValues(view::ViewSession& session, const MontageLanes* montage, std::size_t channel, std::int64_t from,
                std::int64_t to, const core::ReadControl& control, std::vector<double>& values, std::string& error,
                ValueMemo* memo = nullptr);

// laneValues of [first, end) widened by the settling margins of `sos` (none: not widened) within the channel of
// `length` grid points, filtered run by run in `phase`; `from` is where the values start. False (and `error`) when
// a read failed.
bool filteredLaneValues(view::ViewSession& session, const MontageLanes* montage, std::size_t channel,
                        std::int64_t length, const filter::Sos* sos, filter::Phase phase, std::int64_t first,
                        std::int64_t end, const core::ReadControl& control, std::vector<double>& values,
                        std::int64_t& from, std::string& error);

// Samples [first, end) of the channel (or lane) through `spec` (none: as they are), as points per sample
// (`samples`) or min/max per column of the request, with NaN runs where samples are missing; the filtered values
// are `prepared` when given (from prepareFilteredLanes), else read and filtered here. False (and `error`) when a
// read or the design failed.
bool computedPoints(view::ViewSession& session, const FrameRequest& request, std::size_t channel,
                    const filter::FilterSpec* spec, std::int64_t first, std::int64_t end, bool samples,
                    const core::ReadControl& control, ChannelTrace& t, std::vector<core::TimeRange>& nan,
                    std::string& error, const PreparedValues* prepared = nullptr);

// The filtered channels and lanes of an exact frame that its cache does not hold, read on the frame threads and
// filtered side by side (filter::filterRunsTogether) in groups of one filter, rate and span: the filter runs once
// for up to filter::cascadeLanes() of them. What fails here (a read, a design) is left out, for buildTrace to
// compute again and report.
PreparedLanes prepareFilteredLanes(view::ViewSession& session, const FrameRequest& request,
                                   const core::CancelToken& cancel);

// The longest settling margin of `spec` over the channels' rates, in microseconds (0 without a filter).
std::int64_t filterMarginUs(const filter::FilterSpec& spec, const std::vector<double>& rates);

} // namespace lv::widgets
