// Worker-side computation of a TraceFrame from the viewing engine: envelopes or decoded samples, NaN runs,
// line breaks at gaps. Never called on the UI thread.
#pragma once

#include "GapBands.h"
#include "TraceFrame.h"

#include "core/TaskRunner.h"
#include "view/ViewSession.h"

namespace lv::widgets {

// At most this many grid points per column are drawn one by one (zoomed in); more are drawn as min/max envelopes.
constexpr double kSamplesPerColumnLimit = 2.0;

// The robust extent (1st and 99th percentile) of the trace's values, into low and high.
void robustExtent(ChannelTrace& t);

// A channel of the recording, or a lane of the request's montage.
const core::ChannelInfo& shownChannel(const view::ViewSession& session, const FrameRequest& request,
                                      std::size_t channel);

ChannelTrace buildTrace(view::ViewSession& session, const FrameRequest& request, std::size_t channel,
                        const core::CancelToken& cancel, std::string& error);
// Every channel of the request; returns nullptr when cancelled.
std::shared_ptr<TraceFrame> buildFrame(view::ViewSession& session, const FrameRequest& request,
                                       const core::CancelToken& cancel);

} // namespace lv::widgets
