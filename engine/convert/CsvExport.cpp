// Row-chunked CSV writer: each chunk is decoded in parallel, then formatted in order.
#include "convert/CsvExport.h"

#include "convert/CsvCell.h"
#include "convert/CsvNumber.h"
#include "convert/CsvPieces.h"
#include "convert/CsvSideFiles.h"
#include "convert/CsvTables.h"
#include "core/TimeFormat.h"
#include "io/AtomicFile.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>

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
    const core::Recording* labels = nullptr; // a labelled channel's recording: its texts written for its counts
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
            } else if (columns[c].labels && appendLabel(out, *columns[c].labels, columns[c].channel, v, options)) {
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

// Refuses the export when any of its files (tables, side files) exists.
core::Status checkTargets(const std::vector<std::string>& paths)
{
    for (const std::string& path : paths) {
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

// Moves the finished files into place, the CSV tables first (OUT.csv first of all): of two exports to one name the
// one whose CSV lands writes the others, the other fails naming the CSV. When one cannot be moved (a file of that
// name appeared meanwhile), the ones already moved are removed again, so the export leaves all its files or none.
core::Status commitAll(const std::vector<io::AtomicFile*>& files)
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

// The selected channels: all when none are named.
std::vector<std::size_t> selectedChannels(const core::RecordingInfo& info, const CsvOptions& options)
{
    std::vector<std::size_t> channels = options.channels;
    if (channels.empty()) {
        channels.resize(info.channels.size());
        std::iota(channels.begin(), channels.end(), 0);
    }
    return channels;
}

// The grid table: its columns on the common grid and its rows [first, last) in the range.
struct GridPlan {
    std::vector<std::size_t> channels;
    std::vector<Column> columns;
    core::SampleGrid grid;
    std::int64_t first = 0, last = 0;
};

core::Result<GridPlan> planGrid(const core::RecordingInfo& info, const std::vector<std::size_t>& channels,
                                core::TimeRange range)
{
    auto fs = commonRate(info, channels);
    if (!fs) return fs.error();
    core::Uutc origin = info.channels[channels.front()].start;
    for (std::size_t c : channels) origin = std::min(origin, info.channels[c].start);
    GridPlan plan{channels, {}, core::SampleGrid{origin, *fs}, 0, 0};
    std::int64_t rowsEnd = 0;
    for (std::size_t c : channels) {
        const core::ChannelInfo& ch = info.channels[c];
        Column col{
            c, plan.grid.nearestIndex(ch.start), ch.conversionFactor, ch.offset, {ch.conversionFactor, ch.offset}};
        rowsEnd = std::max(rowsEnd, col.offset + ch.gridLength);
        plan.columns.push_back(col);
    }
    plan.first = std::max<std::int64_t>(0, plan.grid.firstIndexAtOrAfter(range.start));
    plan.last = std::min(rowsEnd, plan.grid.firstIndexAtOrAfter(range.end));
    return plan;
}

// Writes the grid table into `out` (open): its header, then its rows chunk by chunk; `advanced(samples)` after each
// chunk (rows x columns); damaged blocks read as missing as comment lines and into `damaged`.
core::Status writeGridTable(core::Recording& recording, const GridPlan& plan, const CsvOptions& options,
                            io::AtomicFile& out, const core::ReadControl& control,
                            const std::function<void(std::int64_t)>& advanced, std::vector<core::Annotation>& damaged)
{
    const core::RecordingInfo& info = recording.info();
    const std::vector<Column>& columns = plan.columns;
    LV_TRY(out.write(csvHeader(info, plan.channels, options)));
    const std::int64_t chunkRows =
        std::max<std::int64_t>(1, kSamplesPerChunk / static_cast<std::int64_t>(columns.size()));
    std::vector<std::vector<std::int32_t>> values(columns.size());
    std::string text;
    std::vector<std::string> pieces; // per thread, reused from chunk to chunk
    for (std::int64_t row = plan.first; row < plan.last; row += chunkRows) {
        const std::int64_t count = std::min(chunkRows, plan.last - row);
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
        formatInPieces(pieces, count, control.runner, [&](std::string& text, std::int64_t from, std::int64_t to) {
            formatRows(text, values, columns, row, from, to, plan.grid, options, info.start);
        });
        for (const std::string& piece : pieces) LV_TRY(out.write(piece));
        advanced(count * std::ssize(columns));
        if (control.cancel && control.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "export cancelled");
    }
    return {};
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
    const std::vector<std::size_t> channels = selectedChannels(info, options);
    if (channels.empty()) return makeError(ErrorCode::Unsupported, "the recording has no channels", info.path);
    const std::vector<CsvTable> tables = csvTables(info, channels, outPath);
    std::optional<GridPlan> grid;
    std::vector<core::SampleSpan> rows(tables.size());
    std::int64_t total = 0; // samples (rows x columns) over all tables, for the progress
    for (std::size_t k = 0; k < tables.size(); ++k) {
        if (!tables[k].irregular) {
            auto plan = planGrid(info, tables[k].channels, options.range);
            if (!plan) return plan.error();
            grid = std::move(*plan);
            for (Column& column : grid->columns)
                if (info.channels[column.channel].labelled && !options.raw) column.labels = &recording;
            total += std::max<std::int64_t>(0, grid->last - grid->first) * std::ssize(grid->columns);
            continue;
        }
        auto span = irregularRows(recording, tables[k], options.range);
        if (!span) return span.error();
        rows[k] = *span;
        total += span->count * std::ssize(tables[k].channels);
    }

    const CsvSideFiles side = csvSideFiles(outPath);
    std::vector<std::string> paths;
    paths.reserve(tables.size() + 2);
    for (const CsvTable& t : tables) paths.push_back(t.path);
    paths.insert(paths.end(), {side.annotations, side.json});
    LV_TRY(checkTargets(paths));
    std::int64_t done = 0;
    const auto advanced = [&](std::int64_t samples) {
        done += samples;
        if (control.progress) control.progress(static_cast<std::uint64_t>(done), static_cast<std::uint64_t>(total));
    };
    std::vector<core::Annotation> damaged;
    std::vector<std::unique_ptr<io::AtomicFile>> files; // the tables, then the two side files
    for (std::size_t k = 0; k < tables.size(); ++k) {
        if (control.cancel && control.cancel->cancelled()) return makeError(ErrorCode::Cancelled, "export cancelled");
        io::AtomicFile& out = *files.emplace_back(std::make_unique<io::AtomicFile>());
        LV_TRY(out.open(tables[k].path));
        if (tables[k].irregular)
            LV_TRY(writeIrregularTable(recording, tables[k], options, rows[k], out, control, advanced, damaged));
        else
            LV_TRY(writeGridTable(recording, *grid, options, out, control, advanced, damaged));
        LV_TRY(out.finish());
    }
    std::vector<core::Annotation> annotations = annotationsInExport(info, channels, options.range);
    annotations.insert(annotations.end(), damaged.begin(), damaged.end());
    std::stable_sort(annotations.begin(), annotations.end(),
                     [](const core::Annotation& a, const core::Annotation& b) { return a.time < b.time; });
    io::AtomicFile& notes = *files.emplace_back(std::make_unique<io::AtomicFile>());
    LV_TRY(writeSideFile(
        notes, side.annotations,
        annotationsCsv(annotations, info.start, info.timesKnown, options.delimiter, options.decimalComma)));
    const std::string notesName = std::filesystem::path(side.annotations).filename().string();
    io::AtomicFile& json = *files.emplace_back(std::make_unique<io::AtomicFile>());
    LV_TRY(writeSideFile(json, side.json, csvDescriptionJson(info, channels, options, info.start, notesName, tables)));
    std::vector<io::AtomicFile*> all;
    all.reserve(files.size());
    for (const auto& f : files) all.push_back(f.get());
    return commitAll(all);
}

std::vector<std::string> csvOutputs(const core::RecordingInfo& info, const CsvOptions& options,
                                    const std::string& outPath)
{
    std::vector<std::string> paths;
    for (const CsvTable& t : csvTables(info, selectedChannels(info, options), outPath)) paths.push_back(t.path);
    return paths;
}

} // namespace lv::convert
