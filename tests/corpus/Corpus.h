// Corruption corpus: runs `info`, `stats`, `convert` (CSV and MEF/EDF) and `validate` on a clean source and on
// each damaged copy of it, and turns what they do into findings (crash, hang, memory, exit status, silent
// wrong values, a message naming no file, `validate` missing damage the other commands show).
#pragma once

#include "Cases.h"
#include "ChildRun.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lv::corpus {

struct Settings {
    std::filesystem::path cli;  // longview-cli
    std::filesystem::path work; // scratch folder of this run
    bool sanitized = false;     // the CLI is an ASan build: no RLIMIT_AS, ASan's own allocation limits
    double minimumSeconds = 5;  // wall-time floor of the limit
    double timeFactor = 2;      // limit = max(timeFactor x the clean run's time, minimumSeconds)
    long memoryLimitKb = 1024 * 1024;
};

// What one command gives, reduced to what is compared with the clean run.
struct CommandResult {
    std::string command;
    ChildOutcome outcome;
    std::string values; // the channels of `info --json`, the numbers of `stats --json`, the CSV's bytes
    bool warned = false;
    bool leftovers = false; // something is left in the output folder after a failed convert
};

struct Finding {
    std::string command;
    std::string kind; // crash, hang, memory, exit-code, silent-diff, no-file-named, validate-missed, leftover
    std::string detail;
};

// The clean run of one source: each command's result, all expected to exit 0 (validate may say otherwise).
struct Baseline {
    std::map<std::string, CommandResult> results;
    std::vector<std::string> csvArguments; // e.g. --channels NAME when the source's rates differ
};

// The commands run on a source of `kind`, by short name: info, stats, csv, convert, validate.
std::vector<std::string> commandNames();

// Runs every command on `input` (a copy of the source at `root`), outputs into `root/../out`.
// With `clean` == nullptr this is the clean run: no time limit; a CSV refused for mixed rates is made again of
// the first channel only, and `baseline.csvArguments` records that.
std::map<std::string, CommandResult> runCommands(const Settings& s, const Source& source,
                                                 const std::filesystem::path& input, const Baseline* clean,
                                                 Baseline* baseline = nullptr);

// Compares a damaged run's results with the clean run; `damaged` is the file name the messages should name.
std::vector<Finding> classify(const Settings& s, const std::map<std::string, CommandResult>& results,
                              const Baseline& clean, const std::string& damaged, const std::string& inputName,
                              bool undetectable = false, bool onlyReadsSee = false);

} // namespace lv::corpus
