// Chunks of 2^20 samples, each read with the filter's settling margins on both sides (filteredLaneValues), filtered and
// cropped, then fed to one WelchAccumulator in order: a run of present samples continues across chunks.
#include "LaneSpectrum.h"

#include "FilteredTrace.h"

#include "filter/Filtering.h"

#include <algorithm>

namespace lv::widgets {

namespace {

constexpr std::int64_t kChunk = std::int64_t{1} << 20;

} // namespace

core::Result<spectrum::Psd> laneSpectrum(view::ViewSession& session, const LaneSpectrumRequest& request,
                                         const core::ReadControl& control)
{
    const core::RecordingInfo& shown = request.montage ? request.montage->info : session.info();
    const core::ChannelInfo& ch = shown.channels.at(request.channel);
    const auto refuse = [&](const std::string& why) {
        return core::makeError(core::ErrorCode::InvalidArgument, ch.name + ": " + why, shown.path);
    };
    if (ch.irregular) return refuse("sampled at irregular times; a spectrum needs a sampling grid");
    const core::SampleGrid grid = ch.grid();
    const std::int64_t first =
        std::clamp<std::int64_t>(grid.firstIndexAtOrAfter(request.range.start), 0, ch.gridLength);
    const std::int64_t end =
        std::clamp<std::int64_t>(grid.firstIndexAtOrAfter(request.range.end), first, ch.gridLength);
    if (end <= first) return refuse("no sample in the range");
    auto accumulator = spectrum::WelchAccumulator::create(ch.fs, request.welch);
    if (!accumulator) return accumulator.error();
    std::optional<filter::Sos> sos;
    if (request.filter && request.filter->any()) {
        auto designed = filter::designFilter(*request.filter, ch.fs);
        if (!designed) return refuse(designed.error().message);
        sos = std::move(*designed);
    }
    const filter::Phase phase = request.filter ? request.filter->phase : filter::Phase::Zero;
    std::vector<double> values;
    std::string error;
    for (std::int64_t at = first; at < end; at += kChunk) {
        if (control.cancel && control.cancel->cancelled())
            return core::makeError(core::ErrorCode::Cancelled, "cancelled");
        const std::int64_t to = std::min(end, at + kChunk);
        std::int64_t from = 0;
        if (!filteredLaneValues(session, request.montage.get(), request.channel, ch.gridLength, sos ? &*sos : nullptr,
                                phase, at, to, control, values, from, error))
            return core::makeError(core::ErrorCode::Io, error, shown.path);
        accumulator->add(std::span<const double>(values).subspan(static_cast<std::size_t>(at - from),
                                                                 static_cast<std::size_t>(to - at)));
        if (control.progress)
            control.progress(static_cast<std::uint64_t>(to - first), static_cast<std::uint64_t>(end - first));
    }
    return accumulator->result();
}

} // namespace lv::widgets
