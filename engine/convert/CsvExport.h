// CSV export: grid channels in one table on their common sampling grid, each set of irregular channels sharing a
// time base (an MDF 4 channel group) in a table of its own with a row per sample time, plus the annotations and
// JSON side files; all written atomically, with progress and cancellation over all of them.
//
// Files of an export to OUT.csv (OUT: the name without ".csv" when it ends so):
//   OUT.csv, OUT.1.csv, OUT.2.csv, ...  the tables: first the grid channels' (when the selection has any), then one
//                                       per time base of irregular channels, in the order of its first selected
//                                       channel. Table 0 is OUT.csv, table k is OUT.<k>.csv; so a selection of
//                                       irregular channels alone has its first group in OUT.csv, never an empty table.
//   OUT.annotations.csv, OUT.json       the side files (CsvSideFiles.h); OUT.json's "tables" names every table
//                                       file with its channels when there are irregular ones.
// An irregular table: the main table's header ("# units: ...", "# times: relative ..." for relative sources, "time"
// and the channel names; its group's label is in OUT.json), then one row per sample time in the range (also when
// every cell of it is empty: an invalid sample is an empty cell). Its time column takes CsvOptions::time at the
// source's ns (csvTimeNs in CsvTables.h): seconds from the recording's start with up to 9 decimals (trailing zeros
// dropped, as the main table's 6), ISO 8601 with 9 decimals ("2018-11-22T14:26:35.439737199+00:00"), uUTC with up
// to 3 decimals ("1542896795439737.199"; a whole microsecond without). fillGaps concerns the grid table only.
#pragma once

#include "convert/Provenance.h"
#include "core/Recording.h"

#include <string>
#include <vector>

namespace lv::convert {

enum class TimeColumn { Seconds, Iso, Uutc };

struct CsvOptions {
    std::vector<std::size_t> channels; // all when empty
    core::TimeRange range;             // half-open, uUTC; rows whose time lies in it
    bool raw = false;                  // stored integers instead of physical values
    TimeColumn time = TimeColumn::Seconds;
    bool fillGaps = false;     // keep rows where every channel lacks a sample
    Provenance provenance{};   // the JSON side file's "source" (empty: the recording's path and format)
    char delimiter = ',';      // between cells: ',', ';' or '\t' (also in the annotations file)
    bool decimalComma = false; // numbers (values, seconds) with ',' for the decimal point: needs ';' or '\t'
};

// InvalidArgument unless `delimiter` is ',', ';' or tab, and a decimal comma goes with ';' or tab.
core::Status checkCsvStyle(char delimiter, bool decimalComma);

// Writes the tables (above), OUT.annotations.csv and OUT.json (CsvSideFiles.h), each to a temporary file, all moved
// into place only when all are complete; an existing one of those names is refused (nothing written), and a failed
// or cancelled export leaves none of them. Grid channels must share one sampling rate. Seconds (time columns,
// annotation onsets) are counted from the recording's start. Progress counts samples (rows x columns) over all
// tables.
core::Status exportCsv(core::Recording& recording, const CsvOptions& options, const std::string& outPath,
                       const core::ReadControl& control);

// The table files exportCsv writes for `options` to `outPath`, in order (OUT.csv first).
std::vector<std::string> csvOutputs(const core::RecordingInfo& info, const CsvOptions& options,
                                    const std::string& outPath);

} // namespace lv::convert
