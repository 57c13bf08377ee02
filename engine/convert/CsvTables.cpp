// A CSV export's tables: which channels go where, the header lines, and the irregular tables' rows at their times.
#include "convert/CsvTables.h"

#include "convert/CsvCell.h"
#include "convert/CsvNumber.h"
#include "convert/CsvPieces.h"
#include "core/TimeFormat.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <map>

namespace lv::convert {

namespace {

constexpr std::int64_t kSamplesPerChunk = 1 << 22; // across all channels, as the main table's chunks

// `v / unit` as an exact decimal with up to `digits` (log10 of unit) decimals, trailing zeros dropped.
std::string exactDecimal(std::int64_t v, std::uint64_t unit, int digits)
{
    const bool negative = v < 0;
    const std::uint64_t a = negative ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
    std::string text = (negative ? "-" : "") + std::to_string(a / unit);
    if (const std::uint64_t fraction = a % unit; fraction != 0) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%0*llu", digits, static_cast<unsigned long long>(fraction));
        std::string f(buf);
        while (f.back() == '0') f.pop_back();
        text += "." + f;
    }
    return text;
}

std::int64_t saturatingSub(std::int64_t a, std::int64_t b)
{
    std::int64_t d = 0;
    if (!__builtin_sub_overflow(a, b, &d)) return d;
    return b < 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

// Irregular channels without a time base (none should be) each get their own.
long timeBaseKey(const core::ChannelInfo& ch, std::size_t channel)
{
    return ch.timeBase >= 0 ? ch.timeBase : -1 - static_cast<long>(channel);
}

struct Chunk {
    std::vector<std::int64_t> timesNs;
    std::vector<std::vector<std::int32_t>> values; // per channel of the table
    std::vector<std::size_t> channels;             // of the recording, per column
    const core::Recording* recording = nullptr;
    std::vector<bool> labelled; // per column: texts written for its counts
};

// Rows [from, to) of a chunk.
void formatRows(std::string& out, const Chunk& chunk, const std::vector<CountFormat>& formats,
                const CsvOptions& options, core::Uutc origin, std::size_t from, std::size_t to)
{
    for (std::size_t r = from; r < to; ++r) {
        out += csvTimeNs(chunk.timesNs[r], options.time, origin, options.decimalComma);
        for (std::size_t c = 0; c < formats.size(); ++c) {
            out += options.delimiter;
            const std::int32_t v = chunk.values[c][r];
            if (v == core::kNoSample) continue;
            if (options.raw) {
                char buf[16];
                out.append(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
                continue;
            }
            if (chunk.labelled[c] && appendLabel(out, *chunk.recording, chunk.channels[c], v, options)) continue;
            const std::size_t at = out.size();
            formats[c].append(out, v);
            if (options.decimalComma) std::replace(out.begin() + static_cast<std::ptrdiff_t>(at), out.end(), '.', ',');
        }
        out += '\n';
    }
}

} // namespace

std::string csvTablePath(const std::string& outPath, std::size_t k)
{
    if (k == 0) return outPath;
    const std::string suffix = ".csv";
    const bool csv = outPath.size() > suffix.size() && outPath.ends_with(suffix);
    return (csv ? outPath.substr(0, outPath.size() - suffix.size()) : outPath) + "." + std::to_string(k) + suffix;
}

std::vector<CsvTable> csvTables(const core::RecordingInfo& info, const std::vector<std::size_t>& channels,
                                const std::string& outPath)
{
    std::vector<CsvTable> tables;
    CsvTable grid;
    std::vector<CsvTable> irregular;
    std::map<long, std::size_t> byTimeBase; // key -> index in `irregular`
    for (std::size_t c : channels) {
        const core::ChannelInfo& ch = info.channels[c];
        if (!ch.irregular) {
            grid.channels.push_back(c);
            continue;
        }
        const auto [at, added] = byTimeBase.try_emplace(timeBaseKey(ch, c), irregular.size());
        if (added) irregular.push_back({{}, true, {}});
        irregular[at->second].channels.push_back(c);
    }
    if (!grid.channels.empty()) tables.push_back(std::move(grid));
    for (CsvTable& t : irregular) tables.push_back(std::move(t));
    for (std::size_t k = 0; k < tables.size(); ++k) tables[k].path = csvTablePath(outPath, k);
    return tables;
}

std::string csvHeader(const core::RecordingInfo& info, const std::vector<std::size_t>& channels,
                      const CsvOptions& options)
{
    std::string units = "# units:", names = "time";
    for (std::size_t c : channels) {
        const core::ChannelInfo& ch = info.channels[c];
        units += " " + ch.name + "=" + (options.raw ? std::string("counts") : ch.unit);
        names += options.delimiter + csvTextCell(ch.name, options.delimiter);
    }
    // A source that knew only relative times (a level-1 view, an EDF+ "Startdate X") says so.
    const std::string times = info.timesKnown ? "" : "# times: relative (the source's true dates are unknown)\n";
    return csvTextCell(units, options.delimiter) + "\n" + times + names + "\n";
}

std::string csvTimeNs(std::int64_t ns, TimeColumn form, core::Uutc origin, bool decimalComma)
{
    std::string text;
    switch (form) {
    case TimeColumn::Seconds:
        text = exactDecimal(saturatingSub(ns, core::usToNs(origin)), 1000000000, 9);
        break;
    case TimeColumn::Iso: {
        text = core::formatIso(core::nsToUs(ns)); // "...ss.ffffff+00:00"
        char extra[4];
        std::snprintf(extra, sizeof extra, "%03d", static_cast<int>(saturatingSub(ns, core::usToNs(core::nsToUs(ns)))));
        text.insert(text.size() - 6, extra);
        return text;
    }
    case TimeColumn::Uutc:
        text = exactDecimal(ns, 1000, 3);
        break;
    }
    if (decimalComma) std::replace(text.begin(), text.end(), '.', ',');
    return text;
}

bool appendLabel(std::string& out, const core::Recording& recording, std::size_t channel, std::int32_t count,
                 const CsvOptions& options)
{
    const std::string label = recording.valueLabel(channel, count);
    if (label.empty()) return false;
    out += csvTextCell(label, options.delimiter);
    return true;
}

core::Result<core::SampleSpan> irregularRows(core::Recording& recording, const CsvTable& table, core::TimeRange range)
{
    if (table.channels.empty()) return core::SampleSpan{};
    return recording.samplesIn(table.channels.front(), range);
}

core::Status writeIrregularTable(core::Recording& recording, const CsvTable& table, const CsvOptions& options,
                                 core::SampleSpan rows, io::AtomicFile& out, const core::ReadControl& control,
                                 const std::function<void(std::int64_t)>& advanced,
                                 std::vector<core::Annotation>& damaged)
{
    const core::RecordingInfo& info = recording.info();
    LV_TRY(out.write(csvHeader(info, table.channels, options)));
    std::vector<CountFormat> formats;
    for (std::size_t c : table.channels)
        formats.emplace_back(info.channels[c].conversionFactor, info.channels[c].offset);
    const std::int64_t chunkRows =
        std::max<std::int64_t>(1, kSamplesPerChunk / static_cast<std::int64_t>(table.channels.size()));
    Chunk chunk;
    chunk.values.resize(table.channels.size());
    chunk.channels = table.channels;
    chunk.recording = &recording;
    for (std::size_t c : table.channels) chunk.labelled.push_back(info.channels[c].labelled && !options.raw);
    std::vector<std::string> pieces;
    std::string text;
    for (std::int64_t row = rows.first; row < rows.first + rows.count; row += chunkRows) {
        const std::int64_t count = std::min(chunkRows, rows.first + rows.count - row);
        chunk.timesNs.assign(static_cast<std::size_t>(count), 0);
        std::vector<core::RawSlice> slices;
        for (std::size_t c = 0; c < table.channels.size(); ++c) {
            chunk.values[c].assign(static_cast<std::size_t>(count), core::kNoSample);
            slices.push_back({table.channels[c], row, chunk.values[c]});
        }
        core::ReadControl chunkControl = control;
        chunkControl.progress = nullptr;
        const core::TimeSlice times{table.channels.front(), row, chunk.timesNs};
        LV_TRY(recording.readTimes(std::span(&times, 1), chunkControl));
        LV_TRY(recording.readRaw(slices, chunkControl));
        text.clear();
        for (const core::DamagedBlock& d : recording.takeDamage()) {
            const core::Annotation a = core::damageAnnotation(info, d);
            text += "# " + a.type + " " + a.channel.value_or("") + " at " +
                    csvTimeNs(core::usToNs(a.time), options.time, info.start, options.decimalComma) + ": " + a.text +
                    "\n";
            damaged.push_back(a);
        }
        LV_TRY(out.write(text));
        formatInPieces(pieces, static_cast<std::int64_t>(chunk.timesNs.size()), control.runner,
                       [&](std::string& text, std::int64_t from, std::int64_t to) {
                           formatRows(text, chunk, formats, options, info.start, static_cast<std::size_t>(from),
                                      static_cast<std::size_t>(to));
                       });
        for (const std::string& piece : pieces) LV_TRY(out.write(piece));
        if (advanced) advanced(count * static_cast<std::int64_t>(table.channels.size()));
        if (control.cancel && control.cancel->cancelled())
            return core::makeError(core::ErrorCode::Cancelled, "export cancelled");
    }
    return {};
}

} // namespace lv::convert
