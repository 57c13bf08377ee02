// The convert machinery shared by `convert` and `merge`: output options, their registration, and the export.
#pragma once

#include "CliSupport.h"

#include "convert/ConvertJob.h"
#include "convert/CsvExport.h"
#include "convert/EdfExport.h"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace lv::cli {

struct ConvertOptions {
    CommonOptions common;
    SelectionOptions selection;
    std::string rename; // "old=new,...": output channel names
    std::string output;
    bool raw = false;
    bool fillGaps = false;
    bool skipDamaged = false;
    bool noVerifyCrc = false;
    convert::TimeColumn time = convert::TimeColumn::Seconds;
    std::string delimiter = "comma";  // CSV: --delimiter comma|semicolon|tab
    bool decimalComma = false;        // CSV: --decimal-comma
    bool uncompressed = false;        // MDF 4: --uncompressed
    int zarrVersion = 2;              // Zarr: --zarr-version 2|3
    std::string zarrDtype = "counts"; // Zarr: --zarr-dtype counts|float32|float64
    double resampleRate = 0.0;        // --resample RATE: irregular channels on a grid of RATE Hz
    double holdSeconds = 0.0;         // --hold MAX_GAP: the longest a value is held (0: 10 median intervals)
    std::string filter;               // --filter "hp=0.5,lp=70,notch=50" (filter::parseFilterSpec)
    std::string montage;              // --montage FILE|double-banana|transverse|average|referential
    double blockSeconds = 0.0;
    std::string level1Password;
    std::string level2Password;
    convert::GapPolicy gaps = convert::GapPolicy::Discontinuous;
    double fillValue = 0.0;
    bool json = false; // convert and merge: print the result as JSON
    bool anonymize = false;
    std::string subjectId;
    std::string shiftDates; // --shift-dates: a whole number of days, or "random" (given without a value)
    bool dropAnnotationText = false;
    bool noUserAnnotations = false; // --no-user-annotations
};

// Registers the options of `convert` other than IN and OUT (--channels, --start, --end, --password, --threads,
// --gaps, --anonymize, --shift-dates, ...).
void addConvertOptions(CLI::App& command, ConvertOptions& options);
// Registers --json (convert and merge print their result as JSON).
void addJsonResultOption(CLI::App& command, ConvertOptions& options);

// Refuses (exit 2) an output name whose format is unknown; returns kOk when it is known.
int checkOutputName(const std::string& output);

// The job that convert, merge and batch run for `inputs` (several: merged) to `output` with these options.
convert::ConvertJob jobFor(const ConvertOptions& o, std::vector<std::string> inputs, std::string output);

// Runs one job in the foreground (convert, merge): its warnings and progress bar on stderr, Ctrl-C cancels, the
// written files (when several) or the JSON result (--json) on stdout. Returns the exit status (4 when the output
// could not be written).
int runJob(const convert::ConvertJob& job, const ConvertOptions& o, const std::string& what);

} // namespace lv::cli
