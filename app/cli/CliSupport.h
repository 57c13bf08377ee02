// Shared plumbing of the CLI subcommands: options, opening, channel and time selection, progress, exit codes.
#pragma once

#include "common/ErrorText.h"
#include "core/Recording.h"
#include "decode/ThreadPool.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace lv::cli {

// The statuses of app/common/ErrorText.h under the CLI's short names.
enum ExitCode {
    kOk = app::kExitOk,
    kProblemsFound = app::kExitProblemsFound,
    kUsage = app::kExitUsage,
    kBadInput = app::kExitBadInput,
    kOutputFailed = app::kExitOutputFailed,
    kCancelled = app::kExitCancelled,
};

struct CommonOptions {
    std::string path;
    std::string password;
    std::size_t threads = 0; // 0: all cores
};

struct SelectionOptions {
    std::string channels; // comma-separated names; empty: all
    std::string start;    // time argument; empty: recording start
    std::string end;      // time argument; empty: recording end
};

void addCommonOptions(CLI::App& command, CommonOptions& options);
void addSelectionOptions(CLI::App& command, SelectionOptions& options);
// --filter SPEC (filter::parseFilterSpec's words, checked as parsed), its help starting with `what`.
void addFilterOption(CLI::App& command, std::string& spec, const std::string& what);

// An opened recording with its pool; failures are printed and turned into an exit code.
struct Session {
    std::unique_ptr<core::Recording> recording;
    std::unique_ptr<decode::ThreadPool> pool;
};
std::optional<Session> openSession(const CommonOptions& options, int& exitCode);

struct Selection {
    std::vector<std::size_t> channels;
    core::TimeRange range;
};
std::optional<Selection> select(const core::RecordingInfo& info, const SelectionOptions& options, int& exitCode);

// Reports a failed engine call on stderr and returns its exit code.
int fail(const core::Error& error);

// A ReadControl with the pool, the Ctrl-C cancel token and (on a terminal) a progress line labelled `what`.
core::ReadControl readControl(Session& session, const std::string& what);
// The same for a job that reads no recording.
core::ReadControl jobControl(core::TaskRunner* runner, const std::string& what);
void finishProgress();

// The Ctrl-C token (SIGINT/SIGTERM handlers installed on first use).
const core::CancelToken* cancelToken();

// Prints the recording's and the reader's warnings on stderr.
void printWarnings(const std::vector<std::string>& warnings);

} // namespace lv::cli
