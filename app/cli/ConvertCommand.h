// The convert machinery shared by `convert` and `merge`: output options, their registration, and the export.
#pragma once

#include "CliSupport.h"

#include "convert/CsvExport.h"
#include "convert/EdfExport.h"

#include <string>

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
    double blockSeconds = 0.0;
    std::string level1Password;
    std::string level2Password;
    convert::GapPolicy gaps = convert::GapPolicy::Discontinuous;
    double fillValue = 0.0;
};

// Registers the options of `convert` other than IN and OUT (--channels, --start, --end, --password, --threads,
// --gaps, ...).
void addConvertOptions(CLI::App& command, ConvertOptions& options);

// Refuses (exit 2) an output name whose format is unknown; returns kOk when it is known.
int checkOutputName(const std::string& output);

// Selects, exports the opened session to o.output with progress and Ctrl-C cancellation, prints warnings, and
// returns the exit status (4 when the output could not be written).
int runConversion(Session& session, const ConvertOptions& o, const std::string& what);

} // namespace lv::cli
