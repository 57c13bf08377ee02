// Windows of every channel read in one readRaw call each, reduced chunk by chunk into float extrema rounded
// outward (a drawn envelope never looks narrower than the data).
#include "analysis/ChunkExtrema.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lv::analysis {

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// The chunk's extrema of counts [0, n) (kNoSample skipped), in physical values.
std::pair<float, float> reduce(std::span<const std::int32_t> counts, const core::ChannelInfo& ch)
{
    std::int32_t lo = std::numeric_limits<std::int32_t>::max(), hi = std::numeric_limits<std::int32_t>::min();
    bool any = false;
    for (const std::int32_t c : counts) {
        if (c == core::kNoSample) continue;
        any = true;
        lo = std::min(lo, c), hi = std::max(hi, c);
    }
    if (!any) return {kNaN, kNaN};
    double a = static_cast<double>(lo) * ch.conversionFactor + ch.offset;
    double b = static_cast<double>(hi) * ch.conversionFactor + ch.offset;
    if (a > b) std::swap(a, b); // a negative factor
    float fa = static_cast<float>(a), fb = static_cast<float>(b);
    if (static_cast<double>(fa) > a) fa = std::nextafter(fa, -std::numeric_limits<float>::infinity());
    if (static_cast<double>(fb) < b) fb = std::nextafter(fb, std::numeric_limits<float>::infinity());
    return {fa, fb};
}

} // namespace

core::Result<ChunkExtrema> chunkExtrema(core::Recording& recording, std::span<const std::size_t> channels,
                                        std::int64_t chunk, const core::ReadControl& control, std::int64_t window)
{
    const core::RecordingInfo& info = recording.info();
    if (chunk < 1 || window < 1)
        return core::makeError(core::ErrorCode::InvalidArgument, "chunk extrema: chunks must hold samples", info.path);
    std::int64_t longest = 0, total = 0;
    for (const std::size_t c : channels) {
        if (c >= info.channels.size() || info.channels[c].irregular)
            return core::makeError(core::ErrorCode::InvalidArgument,
                                   "chunk extrema: no grid channel " + std::to_string(c), info.path);
        longest = std::max(longest, info.channels[c].gridLength);
        total += info.channels[c].gridLength;
    }
    ChunkExtrema out;
    out.chunk = chunk;
    for (const std::size_t c : channels)
        out.channels.emplace_back(static_cast<std::size_t>((info.channels[c].gridLength + chunk - 1) / chunk));
    const std::int64_t step = chunk * window;
    std::int64_t done = 0;
    std::vector<std::vector<std::int32_t>> counts(channels.size());
    core::ReadControl read = control;
    read.progress = nullptr; // this function's progress, not each read's
    for (std::int64_t first = 0; first < longest; first += step) {
        if (control.cancel && control.cancel->cancelled())
            return core::makeError(core::ErrorCode::Cancelled, "chunk extrema cancelled", info.path);
        std::vector<core::RawSlice> slices;
        std::vector<std::size_t> which;
        for (std::size_t k = 0; k < channels.size(); ++k) {
            const std::int64_t n = std::min(step, info.channels[channels[k]].gridLength - first);
            if (n <= 0) continue;
            counts[k].resize(static_cast<std::size_t>(n));
            slices.push_back({channels[k], first, counts[k]});
            which.push_back(k);
        }
        if (auto status = recording.readRaw(slices, read); !status) return status.error();
        core::runEach(control.runner, which.size(), [&](std::size_t s) {
            const std::size_t k = which[s];
            const std::span<const std::int32_t> all = counts[k];
            for (std::size_t at = 0; at < all.size(); at += static_cast<std::size_t>(chunk))
                out.channels[k][static_cast<std::size_t>((first + static_cast<std::int64_t>(at)) / chunk)] =
                    reduce(all.subspan(at, std::min<std::size_t>(static_cast<std::size_t>(chunk), all.size() - at)),
                           info.channels[channels[k]]);
        });
        for (const core::RawSlice& s : slices) done += std::ssize(s.out);
        if (control.progress) control.progress(static_cast<std::uint64_t>(done), static_cast<std::uint64_t>(total));
    }
    return out;
}

} // namespace lv::analysis
