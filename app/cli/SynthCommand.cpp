// longview-cli synth: a realistic synthetic MEF 3.0 recording, the same bytes for the same seed.
#include "CliSupport.h"
#include "Commands.h"

#include "common/ErrorText.h"
#include "convert/SynthExport.h"
#include "core/TimeFormat.h"
#include "decode/ThreadPool.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>

namespace lv::cli {

namespace {

struct SynthCliOptions {
    convert::SynthOptions synth;
    std::string output;
    std::string start;
    bool noGaps = false;
    std::size_t threads = 0;
};

int run(SynthCliOptions& o)
{
    if (!o.start.empty()) {
        auto start = core::parseTimeArgument(o.start, convert::kDefaultSynthStart);
        if (!start) return fail(start.error());
        o.synth.start = *start;
    }
    o.synth.gaps = !o.noGaps;
    decode::ThreadPool pool(o.threads);
    const core::ReadControl control = jobControl(&pool, "synth");
    const auto began = std::chrono::steady_clock::now();
    const core::Status status = convert::writeSynthSession(o.synth, o.output, control);
    finishProgress();
    if (!status.ok()) {
        const bool output =
            status.error().path.rfind(o.output, 0) == 0 && status.error().code != core::ErrorCode::InvalidArgument;
        return output ? (fail(status.error()), static_cast<int>(kOutputFailed)) : fail(status.error());
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    const convert::SynthPlan plan = convert::planSynth(o.synth);
    std::printf("%s: %zu channels, %.6g h at %.6g Hz from %s, %zu pauses, %zu NaN runs, %zu annotations (%.1f s)\n",
                o.output.c_str(), o.synth.channels, o.synth.hours, o.synth.fs, core::formatIso(o.synth.start).c_str(),
                plan.pauses.size(), plan.nanRuns.size(), plan.annotations.size(), seconds);
    return kOk;
}

} // namespace

std::function<int()> addSynthCommand(CLI::App& app)
{
    auto* command =
        app.add_subcommand("synth", "Write a synthetic EEG-like MEF 3.0 recording (deterministic per seed)");
    auto o = std::make_shared<SynthCliOptions>();
    command->add_option("OUT", o->output, "Output session (.mefd, must not exist)")->required();
    command->add_option("--channels", o->synth.channels, "Number of channels (default 16)")->check(CLI::Range(1, 4096));
    command->add_option("--hours", o->synth.hours, "Duration in hours (default 1)")->check(CLI::PositiveNumber);
    command->add_option("--fs", o->synth.fs, "Sampling rate in Hz, fractional allowed (default 256, at most 1e6)")
        ->check(CLI::Range(core::kMinSamplingRate, core::kMaxSamplingRate));
    command->add_option("--seed", o->synth.seed, "Random seed: the same seed gives the same bytes (default 1)");
    command->add_option("--start", o->start, "Time of the first sample: ISO 8601 or integer uUTC (default 2025-01-01)");
    command->add_option("--segment-minutes", o->synth.segmentMinutes, "Start a new segment every M minutes")
        ->check(CLI::PositiveNumber);
    command->add_flag("--no-gaps", o->noGaps, "No recording pauses and no NaN runs");
    command
        ->add_option("--block-seconds", o->synth.blockSeconds,
                     "RED block length in seconds (default: 10 s, at most 32768 samples)")
        ->check(CLI::PositiveNumber);
    command->add_option("--threads", o->threads, "Threads (default: all cores)")->check(CLI::Range(1, 1024));
    return [o]() { return run(*o); };
}

} // namespace lv::cli
