// The tables of a CSV export: the grid channels' table and one per time base of irregular channels, their file
// names, their header, and the writing of an irregular table (a row per sample time, at the source's ns).
#pragma once

#include "convert/CsvExport.h"
#include "io/AtomicFile.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lv::convert {

struct CsvTable {
    std::vector<std::size_t> channels; // in the selection's order
    bool irregular = false;            // one time base's irregular channels: a row per sample time
    std::string path;                  // the table's file
};

// The file of table `k` of an export to `outPath`: `outPath` itself for k = 0, else its name without ".csv" (when it
// ends so) then ".<k>.csv" ("/x/out.csv", 2 -> "/x/out.2.csv").
std::string csvTablePath(const std::string& outPath, std::size_t k);

// The tables of `channels` (in that order): the grid channels' table when any are selected, then one per time base
// of the irregular channels, in the order of each time base's first channel; table k is written to
// csvTablePath(outPath, k), so OUT.csv is never an empty table.
std::vector<CsvTable> csvTables(const core::RecordingInfo& info, const std::vector<std::size_t>& channels,
                                const std::string& outPath);

// The table's first lines: "# units: a=uV b=uV" (one text cell), "# times: relative ..." when the source knew only
// relative times, then "time" and the channel names as text cells (the same for every table; an irregular table's
// group label is in OUT.json, where a comma in it needs no quoting).
std::string csvHeader(const core::RecordingInfo& info, const std::vector<std::size_t>& channels,
                      const CsvOptions& options);

// A time at ns in an irregular table's time column, the main table's forms at the source's resolution:
// seconds from `origin` with up to 9 decimals, trailing zeros dropped ("1.439737199", "2"); ISO 8601 always with 9
// ("2018-11-22T14:26:35.439737199+00:00"); uUTC with up to 3 decimals, none for a whole microsecond
// ("1542896795439737.199"). Seconds and uUTC with ',' for the point under `decimalComma`.
std::string csvTimeNs(std::int64_t ns, TimeColumn form, core::Uutc origin, bool decimalComma);

// The text cell of a labelled channel's count (core::Recording::valueLabel) when it has one; false (nothing
// appended) when it stands for no text.
bool appendLabel(std::string& out, const core::Recording& recording, std::size_t channel, std::int32_t count,
                 const CsvOptions& options);

// The rows [first, first + count) (sample numbers) of an irregular table over `range`: those of its first channel
// (its time base's times are shared).
core::Result<core::SampleSpan> irregularRows(core::Recording& recording, const CsvTable& table, core::TimeRange range);

// Writes an irregular table into `out` (open): its header, then a row per sample of `rows` (every sample time,
// even when all its cells are empty), read and formatted in chunks; `advanced(samples)` after each chunk (samples =
// rows x channels written); a damaged block read as missing is a "# Damaged ..." line before the chunk's rows and
// goes to `damaged`. Cancelled between chunks.
core::Status writeIrregularTable(core::Recording& recording, const CsvTable& table, const CsvOptions& options,
                                 core::SampleSpan rows, io::AtomicFile& out, const core::ReadControl& control,
                                 const std::function<void(std::int64_t)>& advanced,
                                 std::vector<core::Annotation>& damaged);

} // namespace lv::convert
