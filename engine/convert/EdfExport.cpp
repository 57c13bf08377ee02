// One decoding pass where the source's block index predicts what the header needs (extrema, gaps), checked
// against what is written; otherwise, or when the check fails, two passes: a scan, then the write. Records are
// read a chunk ahead on the pool while the current chunk is formatted and written.
#include "convert/EdfExport.h"

#include "convert/EdfDigits.h"
#include "convert/EdfPlan.h"
#include "convert/EdfScan.h"
#include "core/TimeFormat.h"
#include "formats/edf/EdfHeader.h"
#include "formats/edf/EdfIdentity.h"
#include "formats/edf/EdfWriter.h"
#include "formats/edf/Tal.h"
#include "io/AtomicFile.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string_view>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;
namespace edf = formats::edf;

std::string edfAnnotationText(const core::Annotation& a)
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
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r'; }, ' '); // MNE drops them
    return text; // formatTal writes TAL delimiters inside it as spaces
}

namespace {

// One output file: records [first, end) of the plan that hold samples (all of them unless discontinuous).
struct Part {
    std::int64_t first = 0, end = 0;
    bool discontinuous = false;
};

std::vector<Part> partsOf(const EdfPlan& plan, const EdfScan& scan, GapPolicy policy)
{
    if (policy == GapPolicy::Fill) return {{0, plan.records, false}};
    std::vector<Part> parts;
    for (std::int64_t r = 0; r < plan.records; ++r) {
        if (!scan.hasSamples[static_cast<std::size_t>(r)]) continue;
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

// What every part of one attempt shares: the plan with its scales, the annotations, the scan's records, each
// channel's counts-to-digital mapping.
struct Layout {
    const EdfPlan& plan;
    const EdfScan& scan;
    std::vector<core::Annotation> annotations; // sorted by time
    std::vector<EdfDigits> digits;             // per channel
};

struct PartWriter {
    const Layout& layout;
    const Part& part;
    core::Uutc headerStart = 0;
    std::vector<std::int64_t> records; // written records
    std::vector<std::string> tals;     // per written record: its annotations' TALs
    std::size_t annotationBytes = 0;
};

// Spreads the part's annotations over its records: each goes into the first record, from the one holding its
// onset, that has room; the room grows until all fit.
void placeAnnotations(PartWriter& w, std::size_t sampleBytes)
{
    const EdfPlan& plan = w.layout.plan;
    std::vector<std::pair<core::Uutc, std::string>> tals;
    const core::Uutc from = plan.start + w.part.first * plan.recordUs, to = plan.start + w.part.end * plan.recordUs;
    auto written = [&](const core::Annotation& a) { // a gap annotation only where this part has records
        if (a.type != "Gap" || !w.part.discontinuous) return true;
        const std::int64_t r0 = (a.time - plan.start) / plan.recordUs;
        const std::int64_t r1 = (a.time + a.durationUs - plan.start + plan.recordUs - 1) / plan.recordUs;
        return std::any_of(w.records.begin(), w.records.end(), [&](std::int64_t r) { return r >= r0 && r < r1; });
    };
    for (const core::Annotation& a : w.layout.annotations)
        if (a.time >= from && a.time < to && written(a))
            tals.emplace_back(a.time, edf::formatTal(a.time - w.headerStart,
                                                     a.durationUs > 0 ? std::optional(a.durationUs) : std::nullopt,
                                                     {edfAnnotationText(a)}));
    std::size_t room = 64;
    for (const auto& t : tals) room = std::max(room, t.second.size() + 32);
    for (;; room *= 2) {
        w.tals.assign(w.records.size(), {});
        std::size_t next = 0;
        for (std::size_t k = 0; k < w.records.size(); ++k) {
            const core::Uutc recordEnd = plan.start + (w.records[k] + 1) * plan.recordUs;
            const bool last = k + 1 == w.records.size();
            while (next < tals.size() && (tals[next].first < recordEnd || last) &&
                   w.tals[k].size() + tals[next].second.size() + 32 <= room)
                w.tals[k] += tals[next++].second;
        }
        if (next == tals.size() || room > edf::kMaxRecordBytes) break;
    }
    w.annotationBytes = (room + sampleBytes - 1) / sampleBytes * sampleBytes;
}

core::Result<std::string> partHeader(const core::RecordingInfo& info, const PartWriter& w, bool bdf)
{
    const EdfPlan& plan = w.layout.plan;
    const core::Uutc first = plan.start + w.part.first * plan.recordUs;
    edf::WriterHeader h{bdf,
                        w.part.discontinuous,
                        edf::patientField(info.subject),
                        edf::recordingField(first, info.site, info.timesKnown),
                        w.headerStart + (info.timesKnown ? 0 : edf::kUnknownStartDate),
                        static_cast<std::int64_t>(w.records.size()),
                        plan.recordSeconds,
                        {}};
    for (const EdfChannel& ch : plan.channels) h.signals.push_back(ch.signal);
    h.signals.push_back({bdf ? "BDF Annotations" : "EDF Annotations", "", "", "-1", "1", bdf ? -8388608 : -32768,
                         bdf ? 8388607 : 32767, "", static_cast<std::int32_t>(w.annotationBytes / (bdf ? 3 : 2))});
    return edf::formatHeader(h);
}

// The records read together: records [first, first + count) holding written records [k, kEnd).
struct Chunk {
    std::int64_t first = 0, count = 0;
    std::size_t k = 0, kEnd = 0;
};

std::vector<Chunk> chunksOf(const PartWriter& w)
{
    std::vector<Chunk> chunks;
    const std::int64_t step = edfChunkRecords(w.layout.plan);
    for (std::size_t k = 0; k < w.records.size();) {
        Chunk c{w.records[k], std::min<std::int64_t>(step, w.part.end - w.records[k]), k, k};
        while (c.kEnd < w.records.size() && w.records[c.kEnd] < c.first + c.count) ++c.kEnd;
        chunks.push_back(c);
        k = c.kEnd;
    }
    return chunks;
}

// Appends the chunk's written records to `bytes`: each channel's digital samples, then the annotation signal.
void formatChunk(const PartWriter& w, const Chunk& chunk, const std::vector<std::vector<std::int32_t>>& data, bool bdf,
                 std::string& bytes)
{
    const EdfPlan& plan = w.layout.plan;
    const std::size_t width = bdf ? 3 : 2;
    std::size_t samplesBytes = 0;
    for (const EdfChannel& ch : plan.channels) samplesBytes += static_cast<std::size_t>(ch.perRecord) * width;
    bytes.reserve(bytes.size() + (chunk.kEnd - chunk.k) * (samplesBytes + w.annotationBytes));
    for (std::size_t k = chunk.k; k < chunk.kEnd; ++k) {
        const std::int64_t r = w.records[k];
        const std::size_t at = bytes.size();
        bytes.resize(at + samplesBytes);
        char* out = bytes.data() + at;
        for (std::size_t c = 0; c < plan.channels.size(); ++c) {
            const auto per = static_cast<std::size_t>(plan.channels[c].perRecord);
            w.layout.digits[c].write(std::span(data[c]).subspan(static_cast<std::size_t>(r - chunk.first) * per, per),
                                     bdf, out);
            out += per * width;
        }
        const std::string tals =
            edf::formatTal(plan.start + r * plan.recordUs - w.headerStart, std::nullopt, {""}) + w.tals[k];
        bytes.append(tals, 0, std::min(tals.size(), w.annotationBytes));
        bytes.append(w.annotationBytes - std::min(w.annotationBytes, tals.size()), '\0');
    }
}

struct Progress {
    const core::ReadControl& control;
    std::uint64_t done = 0, total = 0;
};

// Writes one part into an uncommitted temporary; `observer` scans what it reads (a prediction's check).
core::Result<std::unique_ptr<io::AtomicFile>> writePart(core::Recording& recording, const Layout& layout,
                                                        const Part& part, const EdfExportOptions& options,
                                                        const std::string& path, Progress& progress,
                                                        EdfScanner* observer)
{
    const core::ReadControl& control = progress.control;
    const EdfPlan& plan = layout.plan;
    PartWriter w{layout, part, 0, {}, {}, 0};
    const core::Uutc first = plan.start + part.first * plan.recordUs;
    w.headerStart = static_cast<core::Uutc>(std::floor(static_cast<double>(first) / 1e6)) * 1'000'000;
    for (std::int64_t r = part.first; r < part.end; ++r)
        if (!part.discontinuous || layout.scan.hasSamples[static_cast<std::size_t>(r)]) w.records.push_back(r);
    placeAnnotations(w, options.bdf ? 3 : 2);
    auto header = partHeader(recording.info(), w, options.bdf);
    if (!header) return header.error();
    auto out = std::make_unique<io::AtomicFile>();
    LV_TRY(out->open(path));
    LV_TRY(out->write(*header));
    const std::vector<Chunk> chunks = chunksOf(w);
    const bool ahead = control.runner && control.runner->threadCount() > 1;
    std::vector<std::vector<std::int32_t>> data[2] = {std::vector<std::vector<std::int32_t>>(plan.channels.size()),
                                                      std::vector<std::vector<std::int32_t>>(plan.channels.size())};
    const auto read = [&](std::size_t i) {
        return readEdfRecords(recording, plan, chunks[i].first, chunks[i].count, data[i % 2], control);
    };
    std::future<core::Status> next;
    if (!chunks.empty() && ahead) next = std::async(std::launch::async, read, 0);
    // Each chunk's bytes are written on a thread of their own while the next chunk is read and formatted: the
    // kernel's copy into the page cache runs beside the decoding (one write in flight, its buffer left alone).
    std::string bytes[2];
    std::future<core::Status> writing;
    io::AtomicFile& file = *out;
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        LV_TRY(ahead ? next.get() : read(i));
        if (ahead && i + 1 < chunks.size()) next = std::async(std::launch::async, read, i + 1);
        if (observer) observer->records(chunks[i].first, chunks[i].count, data[i % 2]);
        bytes[i % 2].clear();
        formatChunk(w, chunks[i], data[i % 2], options.bdf, bytes[i % 2]);
        if (writing.valid()) LV_TRY(writing.get());
        writing = std::async(std::launch::async, [&file, &b = bytes[i % 2]] { return file.write(b); });
        progress.done += chunks[i].kEnd - chunks[i].k;
        if (control.progress) control.progress(progress.done, progress.total);
        if (control.cancel && control.cancel->cancelled()) {
            if (next.valid()) next.wait();
            if (writing.valid()) writing.wait();
            return makeError(ErrorCode::Cancelled, "conversion cancelled");
        }
    }
    if (writing.valid()) LV_TRY(writing.get());
    return out;
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

// One attempt: scales and annotations from `scan`, every part written into uncommitted temporaries.
struct Attempt {
    std::vector<std::unique_ptr<io::AtomicFile>> files;
    std::vector<std::string> paths;
    std::vector<std::string> warnings;
};

core::Result<Attempt> writeParts(core::Recording& recording, EdfPlan plan, const EdfScan& scan,
                                 const std::vector<core::DamagedBlock>& damage, const EdfExportOptions& options,
                                 const std::string& outPath, Progress& progress, EdfScanner* observer)
{
    const core::RecordingInfo& info = recording.info();
    Attempt attempt;
    for (std::size_t c = 0; c < plan.channels.size(); ++c) {
        EdfChannel& ch = plan.channels[c];
        const EdfChannelScan& s = scan.channels[c];
        LV_TRY(chooseEdfScale(ch, info.channels[ch.source], s.minimum, s.maximum, !s.missing.empty(), options,
                              info.path, attempt.warnings));
    }
    Layout layout{plan, scan, plan.annotations, {}};
    for (std::size_t c = 0; c < plan.channels.size(); ++c)
        layout.digits.emplace_back(info.channels[plan.channels[c].source], plan.channels[c], options.fillValue,
                                   scan.channels[c].minimum, scan.channels[c].maximum);
    for (core::Annotation& a : edfGapAnnotations(plan, scan, info)) layout.annotations.push_back(std::move(a));
    for (const core::DamagedBlock& d : damage) layout.annotations.push_back(core::damageAnnotation(info, d));
    std::stable_sort(layout.annotations.begin(), layout.annotations.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    const std::vector<Part> parts = partsOf(plan, scan, options.gaps);
    if (parts.empty()) return makeError(ErrorCode::InvalidArgument, "the time range holds no samples", info.path);
    attempt.paths = partPaths(outPath, parts.size());
    std::error_code ec;
    for (const std::string& p : attempt.paths)
        if (std::filesystem::exists(p, ec))
            return makeError(ErrorCode::InvalidArgument, "the output already exists; choose a new name", p);
    for (std::size_t i = 0; i < parts.size(); ++i) // the last part of a split may start past 2084
        LV_TRY(checkStartDate(plan.start + parts[i].first * plan.recordUs, attempt.paths[i], info.timesKnown));
    for (const Part& p : parts) progress.total += static_cast<std::uint64_t>(p.end - p.first);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        auto file = writePart(recording, layout, parts[i], options, attempt.paths[i], progress, observer);
        if (!file) return file.error();
        attempt.files.push_back(std::move(*file));
    }
    return attempt;
}

core::Status commit(Attempt& attempt)
{
    std::error_code ec;
    for (std::size_t i = 0; i < attempt.files.size(); ++i) {
        const core::Status st = attempt.files[i]->commit();
        if (!st.ok()) {
            for (std::size_t k = 0; k < i; ++k) std::filesystem::remove(attempt.paths[k], ec);
            return st.error();
        }
    }
    return {};
}

} // namespace

core::Result<EdfExportResult> exportEdf(core::Recording& recording, const EdfExportOptions& options,
                                        const std::string& outPath, const core::ReadControl& control)
{
    EdfExportResult result;
    auto plan = makeEdfPlan(recording.info(), options, result.warnings);
    if (!plan) return plan.error();
    LV_TRY(checkStartDate(plan->start, outPath, recording.info().timesKnown)); // before anything is read
    if (!recording.info().timesKnown)
        result.warnings.push_back("the source's times are relative (its true dates are unknown): written with EDF+'s "
                                  "unknown start date (01.01.85, \"Startdate X\"), times counted from there");
    Progress progress{control};
    std::vector<core::DamagedBlock> damage;
    std::optional<Attempt> done;
    if (const auto predicted = predictEdfScan(recording, *plan, control)) {
        EdfScanner observer(*plan);
        auto attempt = writeParts(recording, *plan, *predicted, {}, options, outPath, progress, &observer);
        if (!attempt) return attempt.error();
        damage = recording.takeDamage();
        if (damage.empty() && observer.finish() == *predicted) done = std::move(*attempt);
        // else: blocks held NaN samples or were damaged; the temporaries go, the exact path below writes
    }
    if (!done) {
        EdfScan scan;
        progress.total += static_cast<std::uint64_t>(plan->records);
        LV_TRY(scanEdfRecords(recording, *plan, scan, damage, control, progress.done, progress.total));
        auto attempt = writeParts(recording, *plan, scan, damage, options, outPath, progress, nullptr);
        if (!attempt) return attempt.error();
        done = std::move(*attempt);
    }
    LV_TRY(commit(*done));
    result.files = done->paths;
    for (std::string& w : done->warnings) result.warnings.push_back(std::move(w));
    return result;
}

} // namespace lv::convert
