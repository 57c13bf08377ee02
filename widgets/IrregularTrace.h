// Worker-side trace of an irregular channel: steps or points from its samples' own times, per sample when zoomed in,
// else from the irregular envelope (per column min/max, empty columns empty); a step never bridges a longer pause
// than the request's maximum gap. Never called on the UI thread.
#pragma once

#include "TraceFrame.h"

#include "cache/ViewContext.h"
#include "core/TaskRunner.h"

#include <string>

namespace lv::widgets {

// Reads through `view` (its cache, pyramid and damaged blocks); the times and the channel's description from
// view.times.
ChannelTrace buildIrregularTrace(const cache::ViewContext& view, const FrameRequest& request, std::size_t channel,
                                 const core::CancelToken& cancel, std::string& error);

} // namespace lv::widgets
