// The two files beside a CSV export: OUT.annotations.csv (the annotations of the exported range and channels) and
// OUT.json (where the values came from and how to read them: provenance, time origin, scale, gaps).
#pragma once

#include "convert/CsvExport.h"
#include "convert/CsvTables.h"

#include <string>
#include <vector>

namespace lv::convert {

struct CsvSideFiles {
    std::string annotations; // OUT.annotations.csv
    std::string json;        // OUT.json
};

// The side files of `csvPath`: its name without ".csv" (when it ends so), then ".annotations.csv" and ".json".
CsvSideFiles csvSideFiles(const std::string& csvPath);

// "onset_iso,onset_seconds,duration_seconds,type,text,channel", then one row per annotation in `annotations` (in
// their order): ISO 8601 onset (empty when the times are relative), seconds from `origin` (the CSV time column's
// origin), duration in seconds, then type, text and channel (empty for the whole recording) as text cells; cells
// separated by `delimiter`, seconds with a decimal comma when `decimalComma`.
std::string annotationsCsv(const std::vector<core::Annotation>& annotations, core::Uutc origin, bool timesKnown,
                           char delimiter = ',', bool decimalComma = false);

// The annotations a CSV export of `channels` over `range` carries: the whole recording's and those channels' own,
// with onsets in the range.
std::vector<core::Annotation> annotationsInExport(const core::RecordingInfo& info,
                                                  const std::vector<std::size_t>& channels, core::TimeRange range);

// OUT.json: "source" (provenance), "start_uutc"/"start_iso" (the time origin of the seconds), "times_known",
// "values" ("physical" or "counts"), "time_column", "annotations" (the side file's name), and per channel its name,
// fs, unit, conversion_factor, offset, start_uutc, end_uutc (within the range) and gaps within the range. When
// `tables` holds irregular ones, also "tables": per table its "file" (name), "times" ("grid", or "irregular": a row
// per sample time, at ns), "group" (irregular: its first channel's label) and "channels" (names); and each
// irregular channel has "irregular": true (its fs the median rate, its start and end the range's cut of its own)
// and "table" (its table's file name). Without irregular tables the text is as it always was.
std::string csvDescriptionJson(const core::RecordingInfo& info, const std::vector<std::size_t>& channels,
                               const CsvOptions& options, core::Uutc origin, const std::string& annotationsName,
                               const std::vector<CsvTable>& tables = {});

} // namespace lv::convert
