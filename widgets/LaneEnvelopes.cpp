// Chunk extrema of the lanes' derivations, and their reduction to a frame's columns.
#include "LaneEnvelopes.h"

#include "formats/RecordingOpener.h"
#include "montage/MontageRecording.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace lv::widgets {

std::int64_t laneEnvelopeChunk(std::int64_t samples)
{
    constexpr std::int64_t kMostChunks = std::int64_t{1} << 17;
    std::int64_t chunk = 1024;
    while (samples / chunk > kMostChunks) chunk *= 2;
    return chunk;
}

core::Result<LaneEnvelopes> computeLaneEnvelopes(const std::string& path, const std::string& password,
                                                 const std::string& snapshotDirectory,
                                                 std::shared_ptr<const MontageLanes> montage,
                                                 const core::ReadControl& control)
{
    auto recording = formats::openRecording({path, password, snapshotDirectory, true});
    if (!recording) return recording.error();
    auto derived = montage::MontageRecording::create(std::move(*recording), {montage->name, montage->derivations});
    if (!derived) return derived.error();
    std::int64_t longest = 0;
    for (const core::ChannelInfo& ch : (*derived)->info().channels) longest = std::max(longest, ch.gridLength);
    std::vector<std::size_t> lanes((*derived)->info().channels.size());
    std::iota(lanes.begin(), lanes.end(), std::size_t{0});
    auto extrema = analysis::chunkExtrema(**derived, lanes, laneEnvelopeChunk(longest), control);
    if (!extrema) return extrema.error();
    return LaneEnvelopes{std::move(montage), std::move(*extrema)};
}

bool laneEnvelopePoints(const LaneEnvelopes& envelopes, std::size_t lane, const core::SampleGrid& grid,
                        core::Uutc start, std::int64_t first, std::int64_t end, std::size_t columns, ChannelTrace& t)
{
    const std::size_t k = lane - envelopes.montage->first;
    const std::int64_t chunk = envelopes.extrema.chunk, n = end - first;
    const auto width = static_cast<std::int64_t>(columns);
    if (k >= envelopes.extrema.channels.size() || width == 0 || n < chunk * width) return false;
    const std::vector<std::pair<float, float>>& chunks = envelopes.extrema.channels[k];
    const double origin = static_cast<double>(grid.origin - start) / 1e6, step = 1.0 / grid.fs;
    for (std::int64_t c = 0; c < width; ++c) {
        const std::int64_t a = first + c * n / width, b = first + (c + 1) * n / width;
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (std::int64_t at = a / chunk; at <= (b - 1) / chunk && at < std::ssize(chunks); ++at) {
            const auto [least, greatest] = chunks[static_cast<std::size_t>(at)];
            if (std::isnan(least)) continue;
            lo = std::min(lo, static_cast<double>(least)), hi = std::max(hi, static_cast<double>(greatest));
        }
        const double x = origin + 0.5 * static_cast<double>(a + b) * step;
        if (lo > hi) {
            t.x.push_back(x);
            t.y.push_back(std::numeric_limits<double>::quiet_NaN());
        } else {
            t.x.insert(t.x.end(), {x, x});
            t.y.insert(t.y.end(), {lo, hi});
        }
    }
    return true;
}

} // namespace lv::widgets
