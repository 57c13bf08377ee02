// Opening, selection, progress on a terminal, and Ctrl-C cancellation for the CLI.
#include "CliSupport.h"

#include "ProgressBars.h"

#include "common/ErrorText.h"
#include "convert/Selection.h"
#include "core/TextEscape.h"
#include "core/TimeFormat.h"
#include "filter/FilterSpec.h"
#include "formats/RecordingOpener.h"
#include "formats/mef3/Snapshot.h"

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <sstream>

namespace lv::cli {

namespace {

core::CancelToken g_cancel;
std::mutex g_progressMutex;
std::chrono::steady_clock::time_point g_lastProgress;
bool g_progressShown = false;

extern "C" void onInterrupt(int) { g_cancel.cancel(); }

void showProgress(const std::string& what, std::uint64_t done, std::uint64_t total)
{
    std::lock_guard lock(g_progressMutex);
    const auto now = std::chrono::steady_clock::now();
    if (done < total && now - g_lastProgress < std::chrono::milliseconds(200)) return;
    g_lastProgress = now;
    const double percent = total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0;
    std::fprintf(stderr, "\r%s: %5.1f%%", what.c_str(), percent);
    std::fflush(stderr);
    g_progressShown = true;
}

} // namespace

void addCommonOptions(CLI::App& command, CommonOptions& options)
{
    command.add_option("--password", options.password, "Level-1 or level-2 password of an encrypted recording");
    command.add_option("--threads", options.threads, "Decoding threads (default: all cores)")
        ->check(CLI::Range(1, 1024));
}

void addSelectionOptions(CLI::App& command, SelectionOptions& options)
{
    command.add_option("--channels", options.channels, "Comma-separated channel names (default: all)");
    command.add_option("--start", options.start, "Start time: integer uUTC, ISO 8601, or +SECONDS from the start");
    command.add_option("--end", options.end, "End time (exclusive), same forms as --start");
}

void addFilterOption(CLI::App& command, std::string& spec, const std::string& what)
{
    command
        .add_option("--filter", spec,
                    what + ": hp=HZ, lp=HZ, bp=LOW-HIGH, bs=LOW-HIGH (Butterworth, order=1-8, default 2), notch=HZ "
                           "(harmonics=N, q=Q, default 30), comma-separated, e.g. \"hp=0.5,lp=70,notch=50\"; "
                           "zero-phase (forward and backward) unless causal is added; restarted at every gap")
        ->type_name("SPEC")
        ->check(
            [](const std::string& text) {
                auto parsed = filter::parseFilterSpec(text);
                return parsed ? std::string() : parsed.error().message;
            },
            "SPEC");
}

int fail(const core::Error& error)
{
    finishProgress();
    std::fprintf(stderr, "longview-cli: %s\n", core::escapeControls(app::errorText(error, app::Audience::Cli)).c_str());
    return app::exitStatus(error.code);
}

const core::CancelToken* cancelToken()
{
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    return &g_cancel;
}

std::optional<Session> openSession(const CommonOptions& options, int& exitCode)
{
    cancelToken();
    auto recording =
        formats::openRecording({options.path, options.password, formats::mef3::defaultSnapshotDirectory()});
    if (!recording) {
        exitCode = fail(recording.error());
        return std::nullopt;
    }
    Session s;
    s.recording = std::move(*recording);
    s.pool = std::make_unique<decode::ThreadPool>(options.threads);
    return s;
}

std::optional<Selection> select(const core::RecordingInfo& info, const SelectionOptions& options, int& exitCode)
{
    auto selection = convert::resolveSelection(info, {options.channels, options.start, options.end});
    if (!selection) {
        exitCode = fail(selection.error());
        return std::nullopt;
    }
    return Selection{std::move(selection->channels), selection->range};
}

core::ReadControl readControl(Session& session, const std::string& what)
{
    return jobControl(session.pool.get(), what);
}

core::ReadControl jobControl(core::TaskRunner* runner, const std::string& what)
{
    core::ReadControl control;
    control.runner = runner;
    control.cancel = cancelToken();
    if (stderrIsTerminal())
        control.progress = [what](std::uint64_t done, std::uint64_t total) { showProgress(what, done, total); };
    return control;
}

void finishProgress()
{
    std::lock_guard lock(g_progressMutex);
    if (g_progressShown) std::fputc('\n', stderr);
    g_progressShown = false;
}

void printWarnings(const std::vector<std::string>& warnings)
{
    for (const std::string& w : warnings)
        std::fprintf(stderr, "longview-cli: warning: %s\n", core::escapeControls(w).c_str());
}

} // namespace lv::cli
