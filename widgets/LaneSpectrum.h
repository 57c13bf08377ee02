// The power spectrum of a channel or montage lane as the viewer shows it (the montage's sum, then the display
// filter, restarted at every gap) over a time range, by Welch's method with missing data left out. Read in chunks
// through the block cache, cancellable, with progress; never on the UI thread.
#pragma once

#include "MontageLanes.h"

#include "core/Recording.h"
#include "filter/FilterSpec.h"
#include "spectrum/Welch.h"
#include "view/ViewSession.h"

namespace lv::widgets {

struct LaneSpectrumRequest {
    std::size_t channel = 0;                     // a channel of the recording, or a lane of `montage`
    std::shared_ptr<const MontageLanes> montage; // nullptr: none
    std::optional<filter::FilterSpec> filter;    // the channel's display filter, if any
    core::TimeRange range;                       // half-open, uUTC
    spectrum::WelchOptions welch;
};

// InvalidArgument (naming the channel) for an irregular channel or a range holding none of its samples; Cancelled
// when control.cancel fires between chunks; control.progress gets (samples done, samples).
core::Result<spectrum::Psd> laneSpectrum(view::ViewSession& session, const LaneSpectrumRequest& request,
                                         const core::ReadControl& control);

} // namespace lv::widgets
