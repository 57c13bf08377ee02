// Opening, selection, progress on a terminal, and Ctrl-C cancellation for the CLI.
#include "CliSupport.h"

#include "common/ErrorText.h"
#include "core/TextEscape.h"
#include "core/TimeFormat.h"
#include "formats/RecordingOpener.h"
#include "formats/mef3/Snapshot.h"

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <sstream>
#include <unistd.h>

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
    Selection sel;
    sel.range = {info.start, info.end};
    if (options.channels.empty()) {
        for (std::size_t i = 0; i < info.channels.size(); ++i) sel.channels.push_back(i);
    } else {
        std::stringstream list(options.channels);
        for (std::string name; std::getline(list, name, ',');) {
            const int index = info.channelIndex(name);
            if (index < 0) {
                std::string known;
                for (const auto& c : info.channels) known += (known.empty() ? "" : ", ") + c.name;
                exitCode = fail(core::makeError(core::ErrorCode::InvalidArgument,
                                                "no channel \"" + name + "\" (channels: " + known + ")"));
                return std::nullopt;
            }
            sel.channels.push_back(static_cast<std::size_t>(index));
        }
    }
    for (auto [text, target] : {std::pair{&options.start, &sel.range.start}, std::pair{&options.end, &sel.range.end}}) {
        if (text->empty()) continue;
        auto t = core::parseTimeArgument(*text, info.start);
        if (!t) {
            exitCode = fail(t.error());
            return std::nullopt;
        }
        *target = *t;
    }
    if (info.end < info.start) { // the file's own span: damage the reader let through, not the options
        exitCode = fail(core::makeError(core::ErrorCode::Corrupt,
                                        "the recording ends (" + core::formatIso(info.end) + ") before it starts (" +
                                            core::formatIso(info.start) + ")",
                                        info.path));
        return std::nullopt;
    }
    if (sel.range.end < sel.range.start) {
        exitCode = fail(core::makeError(core::ErrorCode::InvalidArgument, "--end lies before --start"));
        return std::nullopt;
    }
    return sel;
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
    if (::isatty(STDERR_FILENO))
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
