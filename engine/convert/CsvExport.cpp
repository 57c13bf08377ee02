// Row-chunked CSV writer: each chunk is decoded in parallel, then formatted in order.
#include "convert/CsvExport.h"

#include "convert/CsvCell.h"
#include "convert/CsvNumber.h"
#include "convert/CsvSideFiles.h"
#include "core/TimeFormat.h"
#include "io/AtomicFile.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <numeric>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;

namespace {

constexpr std::int64_t kSamplesPerChunk = 1 << 22; // across all channels

struct Column {
    std::size_t channel = 0;
    std::int64_t offset = 0; // grid row of the channel's sample 0
    double factor = 1.0;
    double physicalOffset = 0.0; // physical value of count 0
    CountFormat format{1.0, 0.0};
};

core::Result<double> commonRate(const core::RecordingInfo& info, const std::vector<std::size_t>& channels)
{
    const double fs = info.channels[channels.front()].fs;
    for (std::size_t c : channels) {
        if (info.channels[c].fs != fs) {
            char buf[160];
            std::snprintf(buf, sizeof buf, "channels %s (%g Hz) and %s (%g Hz) have different sampling rates",
                          info.channels[channels.front()].name.c_str(), fs, info.channels[c].name.c_str(),
                          info.channels[c].fs);
            return makeError(ErrorCode::InvalidArgument,
                             std::string(buf) + ": export channels of one rate at a time with --channels", info.path);
        }
    }
    return fs;
}

void appendNumber(std::string& out, std::int64_t v)
{
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

// "# units: a=uV b=uV" (one cell: quoted when a name or unit holds the delimiter, a quote or a line break), then
// the column names, each a text cell.
std::string header(const core::RecordingInfo& info, const std::vector<Column>& columns, const CsvOptions& options)
{
    std::string units = "# units:", names = "time";
    for (const Column& c : columns) {
        const core::ChannelInfo& ch = info.channels[c.channel];
        units += " " + ch.name + "=" + (options.raw ? std::string("counts") : ch.unit);
        names += options.delimiter + csvTextCell(ch.name, options.delimiter);
    }
    // A source that knew only relative times (a level-1 view, an EDF+ "Startdate X") says so.
    const std::string times = info.timesKnown ? "" : "# times: relative (the source's true dates are unknown)\n";
    return csvTextCell(units, options.delimiter) + "\n" + times + names + "\n";
}

// A decimal comma: the '.' of the number appended from `from` on becomes ','.
void decimalCommaFrom(std::string& out, std::size_t from, const CsvOptions& options)
{
    if (options.decimalComma) std::replace(out.begin() + static_cast<std::ptrdiff_t>(from), out.end(), '.', ',');
}

void appendTime(std::string& out, core::Uutc t, const CsvOptions& options, core::Uutc start)
{
    switch (options.time) {
    case TimeColumn::Seconds: {
        const std::size_t from = out.size();
        out += core::formatSeconds(t - start);
        decimalCommaFrom(out, from, options);
        break;
    }
    case TimeColumn::Iso:
        out += core::formatIso(t);
        break;
    case TimeColumn::Uutc:
        appendNumber(out, static_cast<std::int64_t>(t));
        break;
    }
}

// Formats rows [from, to) of the chunk whose first row is grid row `first` and whose samples are in `values` (one
// vector per column).
void formatRows(std::string& out, const std::vector<std::vector<std::int32_t>>& values,
                const std::vector<Column>& columns, std::int64_t first, std::int64_t from, std::int64_t to,
                const core::SampleGrid& grid, const CsvOptions& options, core::Uutc start)
{
    for (std::int64_t r = from; r < to; ++r) {
        const bool any =
            std::any_of(values.begin(), values.end(), [r](const auto& v) { return v[r] != core::kNoSample; });
        if (!any && !options.fillGaps) continue;
        appendTime(out, grid.timeOf(first + r), options, start);
        for (std::size_t c = 0; c < columns.size(); ++c) {
            out += options.delimiter;
            const std::int32_t v = values[c][r];
            if (v == core::kNoSample) continue;
            if (options.raw) {
                appendNumber(out, static_cast<std::int64_t>(v));
            } else {
                const std::size_t from = out.size();
                columns[c].format.append(out, v);
                decimalCommaFrom(out, from, options);
            }
        }
        out += '\n';
    }
}

// One comment line per damaged block read as missing, before the rows of its chunk:
// "# Damaged <channel> at <time>: damaged block in <file> at byte N, samples missing"; the annotation is kept for
// the annotations file too.
void appendDamage(std::string& out, core::Recording& recording, const CsvOptions& options, core::Uutc start,
                  std::vector<core::Annotation>& damaged)
{
    for (const core::DamagedBlock& d : recording.takeDamage()) {
        const core::Annotation a = core::damageAnnotation(recording.info(), d);
        out += "# " + a.type + " " + a.channel.value_or("") + " at ";
        appendTime(out, a.time, options, start);
        out += ": " + a.text + "\n";
        damaged.push_back(a);
    }
}

// Refuses the export when any of its three files exists.
core::Status checkTargets(const std::string& outPath, const CsvSideFiles& side)
{
    for (const std::string& path : {outPath, side.annotations, side.json}) {
        std::error_code ec;
        if (std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
            return makeError(ErrorCode::InvalidArgument, "the output already exists; choose a new name", path);
    }
    return {};
}

// A side file written whole into its temporary, synced and closed (committed later with the others).
core::Status writeSideFile(io::AtomicFile& file, const std::string& target, const std::string& text)
{
    LV_TRY(file.open(target));
    LV_TRY(file.write(text));
    return file.finish();
}

// Moves the finished files into place, the CSV first: of two exports to one name the one whose CSV lands writes the
// side files, the other fails naming the CSV. When one cannot be moved (a file of that name appeared meanwhile),
// the ones already moved are removed again, so the export leaves all three or none.
core::Status commitAll(std::initializer_list<io::AtomicFile*> files)
{
    std::vector<std::string> moved;
    for (io::AtomicFile* f : files) {
        core::Status st = f->commit();
        if (!st.ok()) {
            std::error_code ec;
            for (const std::string& m : moved) std::filesystem::remove(m, ec);
            return st;
        }
        moved.push_back(f->target());
    }
    return {};
}

// formatRows over `runner`: the chunk's rows cut into pieces (two per thread), each formatted into its own text;
// written in order they are the same bytes as one formatRows call.
void formatInPieces(std::vector<std::string>& pieces, const std::vector<std::vector<std::int32_t>>& values,
                    const std::vector<Column>& columns, std::int64_t first, std::int64_t count,
                    const core::SampleGrid& grid, const CsvOptions& options, core::Uutc start, core::TaskRunner* runner)
{
    const std::size_t n =
        std::max<std::size_t>(1, runner ? std::min<std::size_t>(runner->threadCount() * 2, count) : 1);
    pieces.resize(n);
    const auto format = [&](std::size_t k) {
        const std::int64_t from = count * static_cast<std::int64_t>(k) / static_cast<std::int64_t>(n);
        const std::int64_t to = count * static_cast<std::int64_t>(k + 1) / static_cast<std::int64_t>(n);
        pieces[k].clear();
        formatRows(pieces[k], values, columns, first, from, to, grid, options, start);
    };
    if (n == 1) return format(0);
    runner->parallelFor(n, format);
}

} // namespace

core::Status checkCsvStyle(char delimiter, bool decimalComma)
{
    if (delimiter != ',' && delimiter != ';' && delimiter != '\t')
        return makeError(ErrorCode::InvalidArgument, "a CSV delimiter is a comma, a semicolon or a tab");
    if (decimalComma && delimiter == ',')
        return makeError(ErrorCode::InvalidArgument,
                         "a decimal comma needs a semicolon or tab delimiter (a comma would split every number)");
    return {};
}

core::Status exportCsv(core::Recording& recording, const CsvOptions& options, const std::string& outPath,
                       const core::ReadControl& control)
{
    LV_TRY(checkCsvStyle(options.delimiter, options.decimalComma));
    const core::RecordingInfo& info = recording.info();
    std::vector<std::size_t> channels = options.channels;
    if (channels.empty()) {
        channels.resize(info.channels.size());
        std::iota(channels.begin(), channels.end(), 0);
    }
    if (channels.empty()) return makeError(ErrorCode::Unsupported, "the recording has no channels", info.path);
    auto fs = commonRate(info, channels);
    if (!fs) return fs.error();

    core::Uutc origin = info.channels[channels.front()].start;
    for (std::size_t c : channels) origin = std::min(origin, info.channels[c].start);
    const core::SampleGrid grid{origin, *fs};
    std::vector<Column> columns;
    std::int64_t rowsEnd = 0;
    for (std::size_t c : channels) {
        const core::ChannelInfo& ch = info.channels[c];
        Column col{c, grid.nearestIndex(ch.start), ch.conversionFactor, ch.offset, {ch.conversionFactor, ch.offset}};
        rowsEnd = std::max(rowsEnd, col.offset + ch.gridLength);
        columns.push_back(col);
    }
    const std::int64_t first = std::max<std::int64_t>(0, grid.firstIndexAtOrAfter(options.range.start));
    const std::int64_t last = std::min(rowsEnd, grid.firstIndexAtOrAfter(options.range.end));

    const CsvSideFiles side = csvSideFiles(outPath);
    LV_TRY(checkTargets(outPath, side));
    std::vector<core::Annotation> damaged;
    io::AtomicFile out;
    LV_TRY(out.open(outPath));
    LV_TRY(out.write(header(info, columns, options)));
    const std::int64_t chunkRows =
        std::max<std::int64_t>(1, kSamplesPerChunk / static_cast<std::int64_t>(columns.size()));
    std::vector<std::vector<std::int32_t>> values(columns.size());
    std::string text;
    std::vector<std::string> pieces; // per thread, reused from chunk to chunk
    for (std::int64_t row = first; row < last; row += chunkRows) {
        const std::int64_t count = std::min(chunkRows, last - row);
        std::vector<core::RawSlice> slices;
        for (std::size_t c = 0; c < columns.size(); ++c) {
            values[c].assign(static_cast<std::size_t>(count), core::kNoSample);
            const std::int64_t from = std::max(row, columns[c].offset);
            const std::int64_t to =
                std::min(row + count, columns[c].offset + info.channels[columns[c].channel].gridLength);
            if (from < to)
                slices.push_back({columns[c].channel, from - columns[c].offset,
                                  std::span(values[c]).subspan(static_cast<std::size_t>(from - row),
                                                               static_cast<std::size_t>(to - from))});
        }
        core::ReadControl chunkControl = control;
        chunkControl.progress = nullptr;
        LV_TRY(recording.readRaw(slices, chunkControl));
        text.clear();
        appendDamage(text, recording, options, info.start, damaged);
        LV_TRY(out.write(text));
        formatInPieces(pieces, values, columns, row, count, grid, options, info.start, control.runner);
        for (const std::string& piece : pieces) LV_TRY(out.write(piece));
        if (control.progress)
            control.progress(static_cast<std::uint64_t>(row + count - first), static_cast<std::uint64_t>(last - first));
        if (control.cancel && control.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "export cancelled");
    }
    std::vector<core::Annotation> annotations = annotationsInExport(info, channels, options.range);
    annotations.insert(annotations.end(), damaged.begin(), damaged.end());
    std::stable_sort(annotations.begin(), annotations.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    io::AtomicFile notes, json;
    LV_TRY(writeSideFile(
        notes, side.annotations,
        annotationsCsv(annotations, info.start, info.timesKnown, options.delimiter, options.decimalComma)));
    const std::string notesName = std::filesystem::path(side.annotations).filename().string();
    LV_TRY(writeSideFile(json, side.json, csvDescriptionJson(info, channels, options, info.start, notesName)));
    LV_TRY(out.finish());
    return commitAll({&out, &notes, &json});
}

} // namespace lv::convert
