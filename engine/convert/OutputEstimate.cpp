// The figures are bench/README.md's "conversion hub" table (64 ch x 12 h, 2-core CI machine, release build).
#include "convert/OutputEstimate.h"

#include "core/Recording.h"

#include <algorithm>

namespace lv::convert {

namespace {

struct Rate {
    double bytesPerSample;
    double oneThread, twoThreads; // samples per second
};

Rate rateOf(const std::string& extension, bool fromEdf)
{
    if (extension == "edf") return {2.0, 54.1e6, 79.5e6};
    if (extension == "bdf") return {3.0, 47.6e6, 70.1e6};
    if (extension == "csv") return {5.1, 20.4e6, 26.7e6};
    if (extension == "mefd") return fromEdf ? Rate{1.65, 39.3e6, 60.5e6} : Rate{1.65, 25.0e6, 42.0e6};
    if (extension == "mf4")
        return {1.46, 15.0e6, 15.0e6}; // 64 ch x 1 h of synthetic EEG; compression alone is parallel
    if (extension == "zarr") return {1.40, 31.1e6, 52.1e6}; // int32 counts in zstd chunks, 64 ch x 4 h
    return {0, 0, 0};
}

// Grid points in the range; for an irregular channel, its samples in proportion to the part of its span covered.
std::int64_t samplesIn(const core::ChannelInfo& ch, core::TimeRange range)
{
    if (!ch.irregular) return core::sampleSpan(ch, range).count;
    const core::Uutc from = std::max(range.start, ch.start), to = std::min(range.end, ch.end);
    if (to <= from || ch.end <= ch.start) return 0;
    return static_cast<std::int64_t>(static_cast<double>(ch.sampleCount) * static_cast<double>(to - from) /
                                     static_cast<double>(ch.end - ch.start));
}

} // namespace

OutputEstimate estimateOutput(const std::string& extension, const core::RecordingInfo& info, const Selection& selection,
                              std::size_t threads)
{
    OutputEstimate e;
    for (std::size_t c : selection.channels)
        if (c < info.channels.size()) e.samples += samplesIn(info.channels[c], selection.range);
    const bool fromEdf = info.format.starts_with("EDF") || info.format.starts_with("BDF"); // "EDF+C", "BDF", ...
    const Rate rate = rateOf(extension, fromEdf);
    if (rate.oneThread <= 0) return e;
    e.bytes = static_cast<std::uint64_t>(static_cast<double>(e.samples) * rate.bytesPerSample);
    e.seconds = static_cast<double>(e.samples) / (threads >= 2 ? rate.twoThreads : rate.oneThread);
    return e;
}

} // namespace lv::convert
