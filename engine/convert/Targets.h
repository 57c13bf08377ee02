// The one registry of writable targets: every conversion, merge and batch item picks its writer here by the output
// name, so a new writer reaches the CLI, the dialogs and the queue at once.
#pragma once

#include "convert/CsvExport.h"
#include "convert/EdfExport.h"
#include "convert/Provenance.h"
#include "convert/Selection.h"
#include "core/Recording.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lv::convert {

// What a Zarr store's arrays hold.
enum class ZarrValues { Counts, Float32, Float64 };

// Every writer's options (each uses its own).
struct TargetOptions {
    bool raw = false;                           // CSV: stored counts
    TimeColumn time = TimeColumn::Seconds;      // CSV
    bool fillGaps = false;                      // CSV: keep rows without any sample
    double blockSeconds = 0.0;                  // MEF: RED block length (0: the writer's default)
    std::string level1Password;                 // MEF
    std::string level2Password;                 // MEF
    GapPolicy gaps = GapPolicy::Discontinuous;  // EDF/BDF
    double fillValue = 0.0;                     // EDF/BDF
    Provenance provenance{};                    // MEF: the session description; CSV: the JSON side file's "source"
    char csvDelimiter = ',';                    // CSV: ',', ';' or '\t'
    bool csvDecimalComma = false;               // CSV: ',' as the decimal point (with ';' or '\t')
    bool compress = true;                       // MDF 4: transposed-deflate DZ blocks (false: plain DT blocks)
    int zarrVersion = 2;                        // Zarr: 2 or 3
    ZarrValues zarrValues = ZarrValues::Counts; // Zarr: stored counts with scale and offset, or physical floats
};

// What a writer wrote.
struct ExportOutcome {
    std::vector<std::string> files;     // the outputs, in order (EDF --gaps split: one per part)
    std::vector<std::string> sideFiles; // written beside them (CSV: annotations and description)
    std::vector<std::string> warnings;  // the writer's (the reader's are taken from the recording)
};

struct TargetFormat {
    std::string extension;   // without the dot: "mefd", "edf", "bdf", "csv"
    std::string description; // for help texts and dialogs
    std::function<core::Result<ExportOutcome>(core::Recording&, const Selection&, const TargetOptions&,
                                              const std::string& output, const core::ReadControl&)>
        write;
    std::uint64_t workingBytes = 0; // the writer's buffers at most, whatever the length (see estimateJobMemory)
    bool takesIrregular = false;    // writes irregular channels at their own times; else they need resampling
};

// Every writable target, in the order help texts list them.
const std::vector<TargetFormat>& targetFormats();
// The target an output name's extension names (".mefd", ".edf", ...), or nullptr.
const TargetFormat* targetForOutput(const std::string& output);
// The target of an extension without the dot ("mefd"), or nullptr.
const TargetFormat* targetForExtension(const std::string& extension);
// "a .csv, .mefd, .edf or .bdf name": the known extensions in words.
std::string knownTargetNames();

// Writes `selection` of `recording` to `output` with the writer its name selects (InvalidArgument when none).
core::Result<ExportOutcome> exportTo(core::Recording& recording, const Selection& selection,
                                     const TargetOptions& options, const std::string& output,
                                     const core::ReadControl& control);

} // namespace lv::convert
