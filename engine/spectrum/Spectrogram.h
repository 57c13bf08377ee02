// A channel's spectrogram over a time range (a compressed spectral array): one Welch spectrum per column of fixed
// duration, computed from the recording in chunks on the runner, cancellable, with progress. A column whose
// samples hold no whole segment (a gap) is empty, never interpolated.
#pragma once

#include "core/Recording.h"
#include "spectrum/Welch.h"

#include <functional>
#include <vector>

namespace lv::spectrum {

struct SpectrogramOptions {
    double columnSeconds = 4; // each column's span
    WelchOptions welch;       // within each column
};

struct Spectrogram {
    core::Uutc start = 0; // column c covers [start + c x columnUs, start + (c + 1) x columnUs)
    std::int64_t columnUs = 0;
    std::vector<double> frequencies;         // Hz, shared by every column
    std::vector<std::vector<float>> columns; // power density per frequency; empty: no segment in that column
    std::vector<std::uint32_t> segments;     // per column, the segments averaged
};

// InvalidArgument for an irregular channel, a column shorter than a segment or bad Welch options; Cancelled when
// control.cancel fires (checked between chunks). control.progress gets (columns done, columns).
core::Result<Spectrogram> computeSpectrogram(core::Recording& recording, std::size_t channel, core::TimeRange range,
                                             const SpectrogramOptions& options, const core::ReadControl& control);

} // namespace lv::spectrum
