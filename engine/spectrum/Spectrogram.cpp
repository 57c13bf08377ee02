// Columns read a chunk at a time (one readRaw per chunk), turned into physical values and transformed in parallel
// into each column's own slot of the result.
#include "spectrum/Spectrogram.h"

#include <algorithm>
#include <cmath>

namespace lv::spectrum {

namespace {

constexpr std::size_t kChunkSamples = std::size_t{1} << 21; // read at once: 8 MiB of counts

} // namespace

core::Result<Spectrogram> computeSpectrogram(core::Recording& recording, std::size_t channel, core::TimeRange range,
                                             const SpectrogramOptions& o, const core::ReadControl& control)
{
    const core::RecordingInfo& info = recording.info();
    if (channel >= info.channels.size())
        return core::makeError(core::ErrorCode::InvalidArgument, "no channel " + std::to_string(channel), info.path);
    const core::ChannelInfo& ch = info.channels[channel];
    const auto refuse = [&](const std::string& why) {
        return core::makeError(core::ErrorCode::InvalidArgument, "spectrogram of " + ch.name + ": " + why, info.path);
    };
    if (ch.irregular) return refuse("it is sampled at irregular times (resample it first)");
    const std::int64_t perColumn = std::llround(o.columnSeconds * ch.fs);
    if (perColumn < static_cast<std::int64_t>(o.welch.segment) || !(o.columnSeconds > 0))
        return refuse("a column of " + std::to_string(perColumn) + " samples is shorter than a segment (" +
                      std::to_string(o.welch.segment) + ")");
    if (auto checked = welch(std::span<const double>(), ch.fs, o.welch); !checked) return checked.error();
    const core::SampleSpan span = core::sampleSpan(ch, range);
    Spectrogram out;
    const core::SampleGrid grid = ch.grid();
    out.start = grid.timeOf(span.first);
    out.columnUs = std::llround(static_cast<double>(perColumn) * 1e6 / ch.fs);
    const std::size_t columns = static_cast<std::size_t>((span.count + perColumn - 1) / perColumn);
    out.columns.resize(columns);
    out.segments.resize(columns);
    const std::size_t perChunk = std::max<std::size_t>(1, kChunkSamples / static_cast<std::size_t>(perColumn));
    std::vector<std::int32_t> counts;
    std::vector<double> values;
    for (std::size_t first = 0; first < columns; first += perChunk) {
        if (control.cancel && control.cancel->cancelled())
            return core::makeError(core::ErrorCode::Cancelled, "spectrogram cancelled", info.path);
        const std::size_t last = std::min(columns, first + perChunk);
        const std::int64_t from = span.first + static_cast<std::int64_t>(first) * perColumn;
        const std::int64_t to =
            std::min(span.first + span.count, span.first + static_cast<std::int64_t>(last) * perColumn);
        counts.assign(static_cast<std::size_t>(to - from), core::kNoSample);
        const core::RawSlice slice{channel, from, counts};
        core::ReadControl read = control;
        read.progress = nullptr;
        LV_TRY(recording.readRaw({&slice, 1}, read));
        values.resize(counts.size());
        for (std::size_t i = 0; i < counts.size(); ++i)
            values[i] = counts[i] == core::kNoSample ? std::nan("") : counts[i] * ch.conversionFactor + ch.offset;
        const auto job = [&](std::size_t k) {
            const std::size_t at = k * static_cast<std::size_t>(perColumn);
            const std::size_t n = std::min(static_cast<std::size_t>(perColumn), values.size() - at);
            auto psd = welch(std::span<const double>(values).subspan(at, n), ch.fs, o.welch);
            if (!psd || psd->power.empty()) return;
            out.columns[first + k].assign(psd->power.begin(), psd->power.end());
            out.segments[first + k] = static_cast<std::uint32_t>(psd->segments);
        };
        core::runEach(control.runner, last - first, job);
        if (control.progress) control.progress(last, columns);
    }
    for (std::size_t k = 0; k < o.welch.segment / 2 + 1; ++k)
        out.frequencies.push_back(static_cast<double>(k) * ch.fs / static_cast<double>(o.welch.segment));
    return out;
}

} // namespace lv::spectrum
