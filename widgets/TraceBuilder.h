// Worker-side computation of a TraceFrame from the viewing engine: envelopes or decoded samples, NaN runs,
// line breaks at gaps. Never called on the UI thread.
#pragma once

#include "FilteredTrace.h"
#include "GapBands.h"
#include "TraceFrame.h"

#include "core/TaskRunner.h"
#include "view/ViewSession.h"

#include <string>
#include <utility>

namespace lv::widgets {

// At most this many grid points per column are drawn one by one (zoomed in); more are drawn as min/max envelopes.
constexpr double kSamplesPerColumnLimit = 2.0;

// The robust extent (1st and 99th percentile) of the trace's values, into low and high.
void robustExtent(ChannelTrace& t);

// A channel of the recording, or a lane of the request's montage.
const core::ChannelInfo& shownChannel(const view::ViewSession& session, const FrameRequest& request,
                                      std::size_t channel);

// The grid samples [first, end) of the channel (or lane) that the request's range covers.
std::pair<std::int64_t, std::int64_t> traceSpan(const core::ChannelInfo& ch, const FrameRequest& request);

// Whether samples [first, end) are drawn one by one (an exact frame zoomed in), not as min/max per column.
bool drawnAsSamples(const FrameRequest& request, std::int64_t first, std::int64_t end);

// The key of a computed trace (montage lane, filtered channel) in the request's FilteredTraceCache.
std::string computedTraceKey(std::size_t channel, const filter::FilterSpec* spec, std::int64_t first, std::int64_t end,
                             std::size_t columns, bool samples);

// One channel (or lane) of the request; a filtered one takes its values from `prepared` when they are there.
ChannelTrace buildTrace(view::ViewSession& session, const FrameRequest& request, std::size_t channel,
                        const core::CancelToken& cancel, std::string& error, const PreparedLanes* prepared = nullptr);
// Every channel of the request; returns nullptr when cancelled.
std::shared_ptr<TraceFrame> buildFrame(view::ViewSession& session, const FrameRequest& request,
                                       const core::CancelToken& cancel);

} // namespace lv::widgets
