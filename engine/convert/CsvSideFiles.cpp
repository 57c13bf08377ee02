// The annotations table and the JSON description written beside a CSV export.
#include "convert/CsvSideFiles.h"

#include "convert/CsvCell.h"
#include "core/TimeFormat.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

namespace lv::convert {

using nlohmann::ordered_json;

namespace {

const char* timeColumnName(TimeColumn t)
{
    switch (t) {
    case TimeColumn::Seconds:
        return "seconds";
    case TimeColumn::Iso:
        return "iso";
    case TimeColumn::Uutc:
        return "uutc";
    }
    return "";
}

ordered_json sourceJson(const Provenance& p)
{
    return {{"text", p.text()},
            {"paths", p.sources},
            {"format", p.format},
            {"tool", p.tool},
            {"version", p.version},
            {"deidentified", p.deidentified},
            {"dates_shifted", p.datesShifted},
            {"processing", p.processing}};
}

ordered_json channelJson(const core::ChannelInfo& ch, core::TimeRange range)
{
    const core::SampleGrid grid = ch.grid();
    const core::Uutc start = ch.irregular ? std::max(ch.start, range.start)
                                          : grid.timeOf(grid.firstIndexAtOrAfter(std::max(ch.start, range.start)));
    const core::Uutc end = std::min(ch.end, range.end);
    ordered_json gaps = ordered_json::array();
    for (const core::TimeRange& g : ch.gaps) {
        const core::TimeRange cut{std::max(g.start, range.start), std::min(g.end, range.end)};
        if (!cut.empty()) gaps.push_back({cut.start, cut.end});
    }
    return {{"name", ch.name},          {"fs", ch.fs},
            {"unit", ch.unit},          {"conversion_factor", ch.conversionFactor},
            {"offset", ch.offset},      {"start_uutc", start},
            {"end_uutc", end},          {"gaps", gaps},
            {"prefilter", ch.prefilter}};
}

} // namespace

CsvSideFiles csvSideFiles(const std::string& csvPath)
{
    const std::string suffix = ".csv";
    const bool csv = csvPath.size() > suffix.size() && csvPath.ends_with(suffix);
    const std::string base = csv ? csvPath.substr(0, csvPath.size() - suffix.size()) : csvPath;
    return {base + ".annotations.csv", base + ".json"};
}

std::vector<core::Annotation> annotationsInExport(const core::RecordingInfo& info,
                                                  const std::vector<std::size_t>& channels, core::TimeRange range)
{
    std::vector<core::Annotation> out;
    for (const core::Annotation& a : info.annotations) {
        if (!range.contains(a.time)) continue;
        const bool kept = !a.channel || std::any_of(channels.begin(), channels.end(),
                                                    [&](std::size_t c) { return info.channels[c].name == *a.channel; });
        if (kept) out.push_back(a);
    }
    return out;
}

std::string annotationsCsv(const std::vector<core::Annotation>& annotations, core::Uutc origin, bool timesKnown,
                           char delimiter, bool decimalComma)
{
    const char d = delimiter;
    const auto seconds = [decimalComma](std::int64_t us) {
        std::string text = core::formatSeconds(us);
        if (decimalComma) std::replace(text.begin(), text.end(), '.', ',');
        return text;
    };
    std::string out = std::string("onset_iso") + d + "onset_seconds" + d + "duration_seconds" + d + "type" + d +
                      "text" + d + "channel\n";
    for (const core::Annotation& a : annotations) {
        if (timesKnown) out += core::formatIso(a.time);
        out += d + seconds(a.time - origin) + d + seconds(a.durationUs) + d;
        out += csvTextCell(a.type, d) + d + csvTextCell(a.text, d) + d + csvTextCell(a.channel.value_or(""), d) + "\n";
    }
    return out;
}

std::string csvDescriptionJson(const core::RecordingInfo& info, const std::vector<std::size_t>& channels,
                               const CsvOptions& options, core::Uutc origin, const std::string& annotationsName,
                               const std::vector<CsvTable>& tables)
{
    ordered_json j;
    j["source"] = sourceJson(provenanceOr(options.provenance, info));
    j["start_uutc"] = origin;
    j["start_iso"] = info.timesKnown ? ordered_json(core::formatIso(origin)) : ordered_json(nullptr);
    j["times_known"] = info.timesKnown;
    j["values"] = options.raw ? "counts" : "physical";
    j["time_column"] = timeColumnName(options.time);
    j["annotations"] = annotationsName;
    const bool irregular = std::any_of(tables.begin(), tables.end(), [](const CsvTable& t) { return t.irregular; });
    std::vector<std::string> tableOf(info.channels.size()); // file name per channel
    if (irregular) {
        j["tables"] = ordered_json::array();
        for (const CsvTable& t : tables) {
            const std::string file = std::filesystem::path(t.path).filename().string();
            ordered_json table{{"file", file}, {"times", t.irregular ? "irregular" : "grid"}};
            if (t.irregular) table["group"] = info.channels[t.channels.front()].group;
            table["channels"] = ordered_json::array();
            for (std::size_t c : t.channels) {
                table["channels"].push_back(info.channels[c].name);
                tableOf[c] = file;
            }
            j["tables"].push_back(std::move(table));
        }
    }
    j["channels"] = ordered_json::array();
    for (std::size_t c : channels) {
        ordered_json ch = channelJson(info.channels[c], options.range);
        if (irregular && info.channels[c].irregular) ch["irregular"] = true;
        if (irregular) ch["table"] = tableOf[c];
        j["channels"].push_back(std::move(ch));
    }
    // ASCII only; bytes that are not UTF-8 as U+FFFD (nlohmann would throw on them)
    return j.dump(2, ' ', true, ordered_json::error_handler_t::replace) + "\n";
}

} // namespace lv::convert
