// The record grid: a duration from a fixed list that gives whole samples at every rate; scales from extrema.
#include "convert/EdfPlan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;
namespace edf = formats::edf;

namespace {

constexpr std::int64_t kChunkSamples = 1 << 21; // all channels together, per chunk (8 MiB of counts)

core::Result<double> chooseRecordSeconds(const std::vector<double>& rates, std::size_t sampleBytes,
                                         const std::string& path)
{
    for (double d : {1.0, 0.5, 2.0, 0.25, 0.2, 0.1, 5.0, 10.0, 0.05, 0.04, 0.02, 0.01, 0.001}) {
        std::size_t bytes = 200; // room for the annotation signal
        bool whole = true;
        for (double fs : rates) {
            const double n = fs * d;
            whole = whole && std::abs(n - std::round(n)) < 1e-6 && std::round(n) >= 1;
            bytes += static_cast<std::size_t>(std::max(0.0, std::round(n))) * sampleBytes;
        }
        if (whole && bytes <= edf::kMaxRecordBytes) return d;
    }
    return makeError(ErrorCode::InvalidArgument,
                     "no record duration gives whole samples per record for every sampling rate within 61,440 "
                     "bytes; convert fewer channels",
                     path);
}

} // namespace

core::Result<EdfPlan> makeEdfPlan(const core::RecordingInfo& info, const EdfExportOptions& options,
                                  std::vector<std::string>& warnings)
{
    EdfPlan plan;
    plan.bdf = options.bdf;
    std::vector<std::size_t> channels = options.channels;
    if (channels.empty()) {
        channels.resize(info.channels.size());
        std::iota(channels.begin(), channels.end(), 0);
    }
    if (channels.empty()) return makeError(ErrorCode::Unsupported, "the recording has no channels", info.path);
    core::Uutc start = std::numeric_limits<core::Uutc>::max(), end = std::numeric_limits<core::Uutc>::min();
    std::vector<double> rates;
    for (std::size_t c : channels) {
        start = std::min(start, info.channels[c].start), end = std::max(end, info.channels[c].end);
        rates.push_back(info.channels[c].fs);
    }
    // Empty before the options cut it: the file's doing (exit 3); empty after: the options' (exit 2).
    if (end <= start) return makeError(ErrorCode::Unsupported, "the recording holds no samples", info.path);
    plan.start = std::max(start, options.range.start);
    end = std::min(end, options.range.end);
    if (end <= plan.start) return makeError(ErrorCode::InvalidArgument, "the time range holds no samples", info.path);
    auto seconds = chooseRecordSeconds(rates, options.bdf ? 3 : 2, info.path);
    if (!seconds) return seconds.error();
    plan.recordSeconds = *seconds;
    plan.recordUs = static_cast<core::Uutc>(std::llround(*seconds * 1e6));
    plan.records = (end - plan.start + plan.recordUs - 1) / plan.recordUs;
    for (std::size_t c : channels) {
        const core::ChannelInfo& src = info.channels[c];
        EdfChannel ch;
        ch.source = c;
        ch.perRecord = std::llround(src.fs * plan.recordSeconds);
        ch.base = src.grid().nearestIndex(plan.start);
        ch.signal.label = src.name.substr(0, 16);
        ch.signal.unit = src.unit.substr(0, 8);
        ch.signal.prefilter = src.prefilter.substr(0, 80);
        ch.signal.samplesPerRecord = static_cast<std::int32_t>(ch.perRecord);
        if (src.name.size() > 16) warnings.push_back("channel \"" + src.name + "\": label cut to 16 characters");
        plan.channels.push_back(std::move(ch));
    }
    for (const core::Annotation& a : info.annotations) {
        if (a.time < plan.start || a.time >= end) continue;
        const bool kept = !a.channel || std::any_of(channels.begin(), channels.end(),
                                                    [&](std::size_t c) { return info.channels[c].name == *a.channel; });
        if (kept) plan.annotations.push_back(a);
    }
    return plan;
}

namespace {

// The physical range whose digital samples are the source's counts shifted by a whole number K (count c written
// as c - K), so every value is kept exactly: counts [lo, hi] (the fill value's count included) must fit the digital
// range, and the 8-character range fields must give back the source's step and grid to well within a step at
// both ends of the counts. False when they cannot (then the range is centred on the data).
bool alignToSource(EdfChannel& ch, const core::ChannelInfo& src, double lo, double hi, std::int32_t dmin,
                   std::int32_t dmax)
{
    const double f = src.conversionFactor, o = src.offset;
    if (!(f > 0) || !std::isfinite(f) || !std::isfinite(o) || hi - lo > static_cast<double>(dmax) - dmin) return false;
    const double k = std::clamp(std::nearbyint((lo + hi) / 2), hi - dmax, lo - dmin);
    const std::string pmin = edf::formatPhysical((dmin + k) * f + o, false);
    const std::string pmax = edf::formatPhysical((dmax + k) * f + o, true);
    if (pmin.empty() || pmax.empty() || pmin == pmax) return false;
    const double scale = (std::stod(pmax) - std::stod(pmin)) / (static_cast<double>(dmax) - dmin);
    const double offset = std::stod(pmin) - dmin * scale;
    for (double c : {lo, hi}) // the error is affine in the count: its ends bound it
        if (std::abs((c * f + o - offset) / scale - (c - k)) > 0.25) return false;
    ch.signal.physicalMin = pmin, ch.signal.physicalMax = pmax;
    ch.scale = scale, ch.offset = offset;
    return true;
}

} // namespace

core::Status chooseEdfScale(EdfChannel& ch, const core::ChannelInfo& src, std::int32_t minimum, std::int32_t maximum,
                            bool anyMissing, const EdfExportOptions& options, const std::string& sourcePath,
                            std::vector<std::string>& warnings)
{
    const double f = std::abs(src.conversionFactor) > 0 ? std::abs(src.conversionFactor) : 1.0;
    const std::int32_t dmin = options.bdf ? -8388608 : -32768, dmax = options.bdf ? 8388607 : 32767;
    ch.signal.digitalMin = dmin, ch.signal.digitalMax = dmax;
    double lo = 0.0, hi = 0.0;
    if (minimum <= maximum) {
        const double a = minimum * src.conversionFactor + src.offset, b = maximum * src.conversionFactor + src.offset;
        lo = std::min(a, b), hi = std::max(a, b);
    }
    if (anyMissing || minimum > maximum) {
        lo = std::min(lo, options.fillValue), hi = std::max(hi, options.fillValue);
        if (minimum > maximum) lo = hi = options.fillValue;
    }
    if (src.conversionFactor > 0) { // the counts' range, the fill value's count rounded outwards
        double countLo = minimum <= maximum ? minimum : std::numeric_limits<double>::infinity();
        double countHi = minimum <= maximum ? maximum : -std::numeric_limits<double>::infinity();
        if (anyMissing || minimum > maximum) {
            const double fill = (options.fillValue - src.offset) / src.conversionFactor;
            countLo = std::min(countLo, std::floor(fill)), countHi = std::max(countHi, std::ceil(fill));
        }
        if (std::isfinite(countLo) && std::isfinite(countHi) && alignToSource(ch, src, countLo, countHi, dmin, dmax))
            return {};
    }
    const double steps = static_cast<double>(dmax) - dmin;
    const double step = std::max(f, (hi - lo) / (steps - 2));
    const double mid = (lo + hi) / 2;
    ch.signal.physicalMin = edf::formatPhysical(mid - step * steps / 2, false);
    ch.signal.physicalMax = edf::formatPhysical(mid + step * steps / 2, true);
    if (ch.signal.physicalMin.empty() || ch.signal.physicalMax.empty() ||
        ch.signal.physicalMin == ch.signal.physicalMax)
        return makeError(ErrorCode::Unsupported,
                         "channel \"" + src.name +
                             "\": its values do not fit EDF's 8-character "
                             "physical range fields",
                         sourcePath);
    const double pmin = std::stod(ch.signal.physicalMin), pmax = std::stod(ch.signal.physicalMax);
    ch.scale = (pmax - pmin) / steps;
    ch.offset = pmin - dmin * ch.scale;
    if (ch.scale > f * 1.01) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "channel \"%s\": %s keeps steps of %.4g %s against the source's %.4g (%.1f times coarser)%s",
                      src.name.c_str(), options.bdf ? "BDF (24-bit)" : "EDF (16-bit)", ch.scale, src.unit.c_str(), f,
                      ch.scale / f, options.bdf ? "" : "; write .bdf to keep the resolution");
        warnings.push_back(text);
    }
    return {};
}

std::int64_t edfChunkRecords(const EdfPlan& plan)
{
    std::int64_t perRecord = 1;
    for (const EdfChannel& ch : plan.channels) perRecord += ch.perRecord;
    return std::max<std::int64_t>(1, kChunkSamples / perRecord);
}

core::Status readEdfRecords(core::Recording& recording, const EdfPlan& plan, std::int64_t first, std::int64_t count,
                            std::vector<std::vector<std::int32_t>>& out, const core::ReadControl& control)
{
    std::vector<core::RawSlice> slices;
    for (std::size_t c = 0; c < plan.channels.size(); ++c) {
        const EdfChannel& ch = plan.channels[c];
        const auto n = static_cast<std::size_t>(count * ch.perRecord);
        out[c].resize(n); // the read fills its slice whole (kNoSample where no sample is); the rest here
        const std::int64_t from = ch.base + first * ch.perRecord;
        const std::int64_t a = std::clamp<std::int64_t>(0, from, from + std::int64_t(n));
        const std::int64_t b = std::clamp(recording.info().channels[ch.source].gridLength, a, from + std::int64_t(n));
        std::fill(out[c].begin(), out[c].begin() + (a - from), core::kNoSample);
        std::fill(out[c].begin() + (b - from), out[c].end(), core::kNoSample);
        if (a < b)
            slices.push_back(
                {ch.source, a,
                 std::span(out[c]).subspan(static_cast<std::size_t>(a - from), static_cast<std::size_t>(b - a))});
    }
    core::ReadControl chunk = control;
    chunk.progress = nullptr;
    return recording.readRaw(slices, chunk);
}

core::Uutc edfSampleTime(const EdfPlan& plan, const EdfChannel& ch, std::int64_t i)
{
    return plan.start + static_cast<core::Uutc>(
                            std::llround(static_cast<double>(i) * plan.recordUs / static_cast<double>(ch.perRecord)));
}

} // namespace lv::convert
