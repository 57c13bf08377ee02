// CSV export of channels on a common sampling grid, with its annotations and JSON side files, written atomically,
// with progress and cancellation.
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

// Writes `outPath`, OUT.annotations.csv and OUT.json (CsvSideFiles.h), each to a temporary file, all three moved
// into place only when all are complete; an existing one of the three names is refused (nothing written), and a
// failed or cancelled export leaves none of them. Channels must share one sampling rate. Seconds (time column,
// annotation onsets) are counted from the recording's start.
core::Status exportCsv(core::Recording& recording, const CsvOptions& options, const std::string& outPath,
                       const core::ReadControl& control);

} // namespace lv::convert
