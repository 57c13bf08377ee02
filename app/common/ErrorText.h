// The one place where engine errors become sentences for the user (CLI and GUI) and CLI exit statuses.
#pragma once

#include "core/Error.h"

#include <string>

namespace lv::app {

// Who reads the text: the CLI's hints name options ("give it with --password"), the GUI's do not.
enum class Audience { Cli, Gui };

// "<path>: <what is wrong> (at byte N)" with a hint where one helps.
std::string errorText(const core::Error& error, Audience audience = Audience::Cli);
// A writing job's failure: "cancelled; nothing was written" for a cancel (a cancelled job leaves nothing), else
// errorText.
std::string jobFailureText(const core::Error& error, Audience audience = Audience::Cli);

// Exit statuses of longview-cli (and of the GUI's --export mode); README.md "Exit status" states them.
enum ExitStatus {
    kExitOk = 0,
    kExitProblemsFound = 1, // validate found problems
    kExitUsage = 2,         // the user asked for something impossible
    kExitBadInput = 3,      // an input is unreadable, damaged, encrypted or unsupported
    kExitOutputFailed = 4,  // the output could not be written
    kExitBatchPartial = 5,  // reserved for batch: some jobs failed
    kExitCancelled = 130,   // Ctrl-C or SIGTERM
};

// The exit status of a command that failed with `code`.
int exitStatus(core::ErrorCode code);

} // namespace lv::app
