// Two passes over the source in chunks of records: a scan (ranges, which records hold samples, missing runs),
// then the write (digital samples through the header's own scale, TALs spread over the records).
#include "convert/EdfExport.h"

#include "core/TimeFormat.h"
#include "formats/edf/EdfHeader.h"
#include "formats/edf/EdfIdentity.h"
#include "formats/edf/EdfWriter.h"
#include "formats/edf/Tal.h"
#include "io/AtomicFile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <limits>
#include <numeric>
#include <optional>
#include <string_view>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;
namespace edf = formats::edf;

namespace {

constexpr std::int64_t kChunkSamples = 1 << 21; // all channels together, per chunk (8 MiB of counts)

struct Channel {
    std::size_t source = 0;
    std::int64_t perRecord = 0; // samples per record
    std::int64_t base = 0;      // grid index of record 0's first sample
    std::int32_t minimum = std::numeric_limits<std::int32_t>::max(), maximum = std::numeric_limits<std::int32_t>::min();
    bool anyMissing = false;
    std::int64_t runStart = -1;       // open missing run, in samples from record 0
    double scale = 1.0, offset = 0.0; // the written file's physical = digital * scale + offset
    edf::WriterSignal signal;
};

struct Plan {
    core::Uutc start = 0; // record 0
    core::Uutc recordUs = 0;
    double recordSeconds = 1.0;
    std::int64_t records = 0;
    std::vector<Channel> channels;
    std::vector<bool> hasSamples;              // per record
    std::vector<core::Annotation> annotations; // source ones in range, then gap ones (sorted later)
    bool bdf = false;
};

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

// Reads channel c's samples for records [first, first + count) (kNoSample outside its grid).
core::Status readRecords(core::Recording& recording, const Plan& plan, std::int64_t first, std::int64_t count,
                         std::vector<std::vector<std::int32_t>>& out, const core::ReadControl& control)
{
    std::vector<core::RawSlice> slices;
    for (std::size_t c = 0; c < plan.channels.size(); ++c) {
        const Channel& ch = plan.channels[c];
        out[c].assign(static_cast<std::size_t>(count * ch.perRecord), core::kNoSample);
        const std::int64_t from = ch.base + first * ch.perRecord;
        const std::int64_t a = std::max<std::int64_t>(from, 0);
        const std::int64_t b = std::min(from + count * ch.perRecord, recording.info().channels[ch.source].gridLength);
        if (a < b)
            slices.push_back(
                {ch.source, a,
                 std::span(out[c]).subspan(static_cast<std::size_t>(a - from), static_cast<std::size_t>(b - a))});
    }
    core::ReadControl chunk = control;
    chunk.progress = nullptr;
    return recording.readRaw(slices, chunk);
}

std::int64_t chunkRecords(const Plan& plan)
{
    std::int64_t perRecord = 1;
    for (const Channel& ch : plan.channels) perRecord += ch.perRecord;
    return std::max<std::int64_t>(1, kChunkSamples / perRecord);
}

core::Uutc sampleTime(const Plan& plan, const Channel& ch, std::int64_t i)
{
    return plan.start + static_cast<core::Uutc>(
                            std::llround(static_cast<double>(i) * plan.recordUs / static_cast<double>(ch.perRecord)));
}

void closeRun(Plan& plan, Channel& ch, std::int64_t end, const std::string& name)
{
    if (ch.runStart < 0) return;
    const core::Uutc a = sampleTime(plan, ch, ch.runStart), b = sampleTime(plan, ch, end);
    plan.annotations.push_back({a, b - a, "Gap", "Gap", name});
    ch.runStart = -1;
}

// Pass 1: extrema, which records hold samples, and each channel's missing runs (as channel "Gap" annotations).
core::Status scan(core::Recording& recording, Plan& plan, const core::ReadControl& control)
{
    plan.hasSamples.assign(static_cast<std::size_t>(plan.records), false);
    std::vector<std::vector<std::int32_t>> data(plan.channels.size());
    const std::int64_t step = chunkRecords(plan);
    for (std::int64_t r = 0; r < plan.records; r += step) {
        const std::int64_t n = std::min(step, plan.records - r);
        LV_TRY(readRecords(recording, plan, r, n, data, control));
        for (std::size_t c = 0; c < plan.channels.size(); ++c) {
            Channel& ch = plan.channels[c];
            for (std::int64_t i = 0; i < n * ch.perRecord; ++i) {
                const std::int32_t v = data[c][static_cast<std::size_t>(i)];
                const std::int64_t at = r * ch.perRecord + i;
                if (v == core::kNoSample) {
                    ch.anyMissing = true;
                    if (ch.runStart < 0) ch.runStart = at;
                    continue;
                }
                closeRun(plan, ch, at, recording.info().channels[ch.source].name);
                plan.hasSamples[static_cast<std::size_t>(at / ch.perRecord)] = true;
                ch.minimum = std::min(ch.minimum, v);
                ch.maximum = std::max(ch.maximum, v);
            }
        }
        if (control.cancel && control.cancel->cancelled())
            return makeError(ErrorCode::Cancelled, "conversion cancelled");
    }
    for (Channel& ch : plan.channels)
        closeRun(plan, ch, plan.records * ch.perRecord, recording.info().channels[ch.source].name);
    for (const core::DamagedBlock& d : recording.takeDamage())
        plan.annotations.push_back(core::damageAnnotation(recording.info(), d));
    return {};
}

// The physical range from the data (and the fill value when it is used), at the source's resolution when the
// digital range holds it; the header's 8-character numbers decide the scale every reader will use.
core::Status chooseScale(Channel& ch, const core::ChannelInfo& src, const EdfExportOptions& options,
                         const std::string& sourcePath, std::vector<std::string>& warnings)
{
    const double f = std::abs(src.conversionFactor) > 0 ? std::abs(src.conversionFactor) : 1.0;
    const std::int32_t dmin = options.bdf ? -8388608 : -32768, dmax = options.bdf ? 8388607 : 32767;
    double lo = 0.0, hi = 0.0;
    if (ch.minimum <= ch.maximum) {
        const double a = ch.minimum * src.conversionFactor + src.offset,
                     b = ch.maximum * src.conversionFactor + src.offset;
        lo = std::min(a, b), hi = std::max(a, b);
    }
    if (ch.anyMissing || ch.minimum > ch.maximum) {
        lo = std::min(lo, options.fillValue), hi = std::max(hi, options.fillValue);
        if (ch.minimum > ch.maximum) lo = hi = options.fillValue;
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
    ch.signal.digitalMin = dmin, ch.signal.digitalMax = dmax;
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

core::Result<Plan> makePlan(core::Recording& recording, const EdfExportOptions& options,
                            std::vector<std::string>& warnings)
{
    const core::RecordingInfo& info = recording.info();
    Plan plan;
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
        Channel ch;
        ch.source = c;
        ch.perRecord = std::llround(src.fs * plan.recordSeconds);
        ch.base = src.grid().nearestIndex(plan.start);
        ch.signal.label = src.name.substr(0, 16);
        ch.signal.unit = src.unit.substr(0, 8);
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

// One output file: records [first, end) of the plan that hold samples (all of them unless discontinuous).
struct Part {
    std::int64_t first = 0, end = 0;
    bool discontinuous = false;
};

std::vector<Part> partsOf(const Plan& plan, GapPolicy policy)
{
    if (policy == GapPolicy::Fill) return {{0, plan.records, false}};
    std::vector<Part> parts;
    for (std::int64_t r = 0; r < plan.records; ++r) {
        if (!plan.hasSamples[static_cast<std::size_t>(r)]) continue;
        if (!parts.empty() && parts.back().end == r)
            parts.back().end = r + 1;
        else
            parts.push_back({r, r + 1, false});
    }
    if (policy == GapPolicy::Discontinuous && parts.size() > 1) parts = {{parts.front().first, parts.back().end, true}};
    return parts;
}

// A TAL's text: never empty (an empty annotation says nothing, and some readers drop it), so a text left out
// (--drop-annotation-text) or blank gives the type, or "Annotation" for EDF's own type.
std::string annotationText(const core::Annotation& a)
{
    const bool blank = a.text.find_first_not_of(std::string_view(" \t\r\n\x14\x15\0", 7)) == std::string::npos;
    const bool edfType = a.type == "EDFA" || a.type.empty();
    if (blank) {
        if (a.channel && (a.type == "Gap" || a.type == "Damaged")) return a.type + " " + *a.channel;
        return edfType ? "Annotation" : a.type;
    }
    std::string text = (edfType || a.type == "Note" || a.type == "Gap") ? a.text : a.type + ": " + a.text;
    if (a.channel && a.type == "Gap") text = "Gap " + *a.channel;
    if (a.channel && a.type == "Damaged") text = "Damaged " + *a.channel + ": " + a.text;
    return text; // formatTal writes TAL delimiters inside it as spaces
}

struct PartWriter {
    const Plan& plan;
    const Part& part;
    core::Uutc headerStart = 0;
    std::vector<std::int64_t> records; // written records
    std::vector<std::string> tals;     // per written record: its annotations' TALs
    std::size_t annotationBytes = 0;
};

// Spreads the part's annotations over its records: each goes into the first record, from the one holding its
// onset, that has room; the room grows until all fit.
void placeAnnotations(PartWriter& w, const std::vector<core::Annotation>& all, std::size_t sampleBytes)
{
    std::vector<std::pair<core::Uutc, std::string>> tals;
    const core::Uutc from = w.plan.start + w.part.first * w.plan.recordUs,
                     to = w.plan.start + w.part.end * w.plan.recordUs;
    auto written = [&](const core::Annotation& a) { // a gap annotation only where this part has records
        if (a.type != "Gap" || !w.part.discontinuous) return true;
        const std::int64_t r0 = (a.time - w.plan.start) / w.plan.recordUs;
        const std::int64_t r1 = (a.time + a.durationUs - w.plan.start + w.plan.recordUs - 1) / w.plan.recordUs;
        return std::any_of(w.records.begin(), w.records.end(), [&](std::int64_t r) { return r >= r0 && r < r1; });
    };
    for (const core::Annotation& a : all)
        if (a.time >= from && a.time < to && written(a))
            tals.emplace_back(a.time, edf::formatTal(a.time - w.headerStart,
                                                     a.durationUs > 0 ? std::optional(a.durationUs) : std::nullopt,
                                                     {annotationText(a)}));
    std::size_t room = 64;
    for (const auto& t : tals) room = std::max(room, t.second.size() + 32);
    for (;; room *= 2) {
        w.tals.assign(w.records.size(), {});
        std::size_t next = 0;
        for (std::size_t k = 0; k < w.records.size(); ++k) {
            const core::Uutc recordEnd = w.plan.start + (w.records[k] + 1) * w.plan.recordUs;
            const bool last = k + 1 == w.records.size();
            while (next < tals.size() && (tals[next].first < recordEnd || last) &&
                   w.tals[k].size() + tals[next].second.size() + 32 <= room)
                w.tals[k] += tals[next++].second;
        }
        if (next == tals.size() || room > edf::kMaxRecordBytes) break;
    }
    w.annotationBytes = (room + sampleBytes - 1) / sampleBytes * sampleBytes;
}

std::int32_t digital(std::int32_t count, const core::ChannelInfo& src, const Channel& ch, double fill)
{
    const double physical = count == core::kNoSample ? fill : count * src.conversionFactor + src.offset;
    const double d = std::nearbyint((physical - ch.offset) / ch.scale);
    return static_cast<std::int32_t>(
        std::clamp(d, static_cast<double>(ch.signal.digitalMin), static_cast<double>(ch.signal.digitalMax)));
}

core::Status writePart(core::Recording& recording, const Plan& plan, const Part& part, const EdfExportOptions& options,
                       const std::string& path, const core::ReadControl& control, std::uint64_t& done,
                       std::uint64_t total)
{
    PartWriter w{plan, part, 0, {}, {}, 0};
    const core::Uutc first = plan.start + part.first * plan.recordUs;
    w.headerStart = static_cast<core::Uutc>(std::floor(static_cast<double>(first) / 1e6)) * 1'000'000;
    for (std::int64_t r = part.first; r < part.end; ++r)
        if (!part.discontinuous || plan.hasSamples[static_cast<std::size_t>(r)]) w.records.push_back(r);
    placeAnnotations(w, plan.annotations, options.bdf ? 3 : 2);
    edf::WriterHeader h{options.bdf,
                        part.discontinuous,
                        edf::patientField(recording.info().subject),
                        edf::recordingField(first, recording.info().site, recording.info().timesKnown),
                        w.headerStart + (recording.info().timesKnown ? 0 : edf::kUnknownStartDate),
                        static_cast<std::int64_t>(w.records.size()),
                        plan.recordSeconds,
                        {}};
    for (const Channel& ch : plan.channels) h.signals.push_back(ch.signal);
    edf::WriterSignal annotations{options.bdf ? "BDF Annotations" : "EDF Annotations",
                                  "",
                                  "",
                                  "-1",
                                  "1",
                                  options.bdf ? -8388608 : -32768,
                                  options.bdf ? 8388607 : 32767,
                                  "",
                                  static_cast<std::int32_t>(w.annotationBytes / (options.bdf ? 3 : 2))};
    h.signals.push_back(annotations);
    auto header = edf::formatHeader(h);
    if (!header) return header.error();
    io::AtomicFile out;
    LV_TRY(out.open(path));
    LV_TRY(out.write(*header));
    std::vector<std::vector<std::int32_t>> data(plan.channels.size()), digits(plan.channels.size());
    std::string bytes;
    const std::int64_t step = chunkRecords(plan);
    for (std::size_t k = 0; k < w.records.size();) {
        const std::int64_t r0 = w.records[k];
        const std::int64_t n = std::min<std::int64_t>(step, part.end - r0);
        LV_TRY(readRecords(recording, plan, r0, n, data, control));
        bytes.clear();
        for (; k < w.records.size() && w.records[k] < r0 + n; ++k) {
            const std::int64_t r = w.records[k];
            std::vector<std::span<const std::int32_t>> signals;
            for (std::size_t c = 0; c < plan.channels.size(); ++c) {
                const Channel& ch = plan.channels[c];
                const core::ChannelInfo& src = recording.info().channels[ch.source];
                digits[c].resize(static_cast<std::size_t>(ch.perRecord));
                for (std::int64_t i = 0; i < ch.perRecord; ++i)
                    digits[c][static_cast<std::size_t>(i)] = digital(
                        data[c][static_cast<std::size_t>((r - r0) * ch.perRecord + i)], src, ch, options.fillValue);
                signals.push_back(digits[c]);
            }
            const std::string tals =
                edf::formatTal(plan.start + r * plan.recordUs - w.headerStart, std::nullopt, {""}) + w.tals[k];
            edf::appendRecord(bytes, options.bdf, signals, tals, w.annotationBytes);
            ++done;
        }
        LV_TRY(out.write(bytes));
        if (control.progress) control.progress(done, total);
        if (control.cancel && control.cancel->cancelled())
            return makeError(ErrorCode::Cancelled, "conversion cancelled");
    }
    return out.commit();
}

// EDF's start date is dd.mm.yy, read as 1985-2084 (EDF+ keeps that clipping): a file starting outside those years
// would be read with a wrong date, so it is refused, naming the file.
core::Status checkStartDate(core::Uutc first, const std::string& path, bool timesKnown)
{
    constexpr core::Uutc kFirst = 473'385'600'000'000;               // 1985-01-01T00:00:00Z
    constexpr core::Uutc kEnd = 3'629'145'600'000'000;               // 2085-01-01T00:00:00Z
    if (!timesKnown || (first >= kFirst && first < kEnd)) return {}; // relative times start at 1985-01-01
    return makeError(ErrorCode::InvalidArgument,
                     "EDF+ and BDF+ hold start dates from 1985-01-01 to 2084-12-31 only, and this file would start "
                     "at " +
                         core::formatIso(first) + " (write .mefd or .csv, or move the dates with --shift-dates)",
                     path);
}

std::vector<std::string> partPaths(const std::string& outPath, std::size_t parts)
{
    if (parts <= 1) return {outPath};
    const std::filesystem::path p(outPath);
    std::vector<std::string> paths;
    for (std::size_t i = 1; i <= parts; ++i)
        paths.push_back(
            (p.parent_path() / (p.stem().string() + "_" + std::to_string(i) + p.extension().string())).string());
    return paths;
}

} // namespace

core::Result<EdfExportResult> exportEdf(core::Recording& recording, const EdfExportOptions& options,
                                        const std::string& outPath, const core::ReadControl& control)
{
    EdfExportResult result;
    auto plan = makePlan(recording, options, result.warnings);
    if (!plan) return plan.error();
    LV_TRY(checkStartDate(plan->start, outPath, recording.info().timesKnown)); // before the scan reads everything
    if (!recording.info().timesKnown)
        result.warnings.push_back("the source's times are relative (its true dates are unknown): written with EDF+'s "
                                  "unknown start date (01.01.85, \"Startdate X\"), times counted from there");
    LV_TRY(scan(recording, *plan, control));
    for (Channel& ch : plan->channels)
        LV_TRY(chooseScale(ch, recording.info().channels[ch.source], options, recording.info().path, result.warnings));
    std::stable_sort(plan->annotations.begin(), plan->annotations.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    const std::vector<Part> parts = partsOf(*plan, options.gaps);
    if (parts.empty())
        return makeError(ErrorCode::InvalidArgument, "the time range holds no samples", recording.info().path);
    const std::vector<std::string> paths = partPaths(outPath, parts.size());
    for (std::size_t i = 0; i < parts.size(); ++i) // the last part of a split may start past 2084
        LV_TRY(checkStartDate(plan->start + parts[i].first * plan->recordUs, paths[i], recording.info().timesKnown));
    std::error_code ec;
    for (const std::string& p : paths)
        if (std::filesystem::exists(p, ec))
            return makeError(ErrorCode::InvalidArgument, "the output already exists; choose a new name", p);
    std::uint64_t done = 0, total = 0;
    for (const Part& p : parts) total += static_cast<std::uint64_t>(p.end - p.first);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const core::Status st = writePart(recording, *plan, parts[i], options, paths[i], control, done, total);
        if (!st.ok()) {
            for (std::size_t k = 0; k < i; ++k) std::filesystem::remove(paths[k], ec);
            return st.error();
        }
        result.files.push_back(paths[i]);
    }
    return result;
}

} // namespace lv::convert
