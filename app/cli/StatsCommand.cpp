// longview-cli stats: per-channel counts, gaps, NaNs, extrema, mean and standard deviation over a range.
#include "CliSupport.h"
#include "Commands.h"

#include "analysis/ChannelStats.h"
#include "core/TextEscape.h"
#include "core/TimeFormat.h"
#include "filter/FilteredRecording.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace lv::cli {

namespace {

struct StatsOptions {
    CommonOptions common;
    SelectionOptions selection;
    bool json = false;
    bool verifyCrc = false; // accepted for older scripts: the CRCs are checked by default
    bool noVerifyCrc = false;
    bool skipDamaged = false;
    std::string filter; // --filter SPEC: statistics of the filtered values (filter::parseFilterSpec)
};

nlohmann::ordered_json number(double v)
{
    return std::isnan(v) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v);
}

void print(const core::RecordingInfo& info, const std::vector<analysis::ChannelStats>& stats, bool json, double seconds)
{
    std::int64_t total = 0;
    for (const auto& s : stats) total += s.samples;
    if (json) {
        nlohmann::ordered_json j;
        j["channels"] = nlohmann::ordered_json::array();
        for (const auto& s : stats)
            j["channels"].push_back({{"name", info.channels[s.channel].name},
                                     {"samples", s.samples},
                                     {"gaps", s.gaps},
                                     {"gap_duration_us", s.gapDurationUs},
                                     {"nan_count", s.nanCount},
                                     {"min", number(s.minimum)},
                                     {"max", number(s.maximum)},
                                     {"mean", number(s.mean)},
                                     {"std", number(s.standardDeviation)}});
        j["decoded_samples"] = total;
        j["seconds"] = seconds;
        std::printf("%s\n",
                    j.dump(2, ' ', true, nlohmann::ordered_json::error_handler_t::replace).c_str()); // as info --json
        return;
    }
    std::printf("%-16s %12s %6s %12s %10s %14s %14s %14s %14s\n", "channel", "samples", "gaps", "gap s", "nan", "min",
                "max", "mean", "std");
    for (const auto& s : stats)
        std::printf("%-16s %12lld %6lld %12s %10lld %14.6g %14.6g %14.6g %14.6g\n",
                    core::escapeControls(info.channels[s.channel].name).c_str(), static_cast<long long>(s.samples),
                    static_cast<long long>(s.gaps), core::formatSeconds(s.gapDurationUs).c_str(),
                    static_cast<long long>(s.nanCount), s.minimum, s.maximum, s.mean, s.standardDeviation);
    std::printf("decoded %lld samples in %.3f s (%.1f M samples/s)\n", static_cast<long long>(total), seconds,
                seconds > 0 ? static_cast<double>(total) / seconds / 1e6 : 0.0);
}

int run(const StatsOptions& o)
{
    int exitCode = kOk;
    auto session = openSession(o.common, exitCode);
    if (!session) return exitCode;
    printWarnings(session->recording->info().warnings);
    auto selection = select(session->recording->info(), o.selection, exitCode);
    if (!selection) return exitCode;
    if (auto spec = filter::parseFilterSpec(o.filter); spec && spec->any()) { // checked when parsed
        auto filtered = filter::FilteredRecording::create(std::move(session->recording), *spec, selection->channels);
        if (!filtered) return fail(filtered.error());
        session->recording = std::move(*filtered);
    }
    core::ReadControl control = readControl(*session, "stats");
    control.verifyCrc = o.verifyCrc || !o.noVerifyCrc;
    control.skipDamagedBlocks = o.skipDamaged;
    const auto begin = std::chrono::steady_clock::now();
    auto stats = analysis::computeStats(*session->recording, selection->channels, selection->range, control);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    finishProgress();
    printWarnings(session->recording->takeWarnings());
    if (!stats) return fail(stats.error());
    print(session->recording->info(), *stats, o.json, seconds);
    return kOk;
}

} // namespace

std::function<int()> addStatsCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("stats", "Decode a range on all cores and report per-channel statistics");
    auto o = std::make_shared<StatsOptions>();
    command->add_option("PATH", o->common.path, "Recording")->required();
    addCommonOptions(*command, o->common);
    addSelectionOptions(*command, o->selection);
    command->add_flag("--json", o->json, "Print JSON");
    command->add_flag("--verify-crc", o->verifyCrc, "Check every data block's CRC while decoding (the default)");
    command->add_flag("--no-verify-crc", o->noVerifyCrc, "Do not check the MEF data blocks' CRCs");
    command->add_flag("--skip-damaged", o->skipDamaged, "Read a damaged block as missing samples (with a warning)");
    addFilterOption(*command, o->filter, "Statistics of filtered values");
    return [o]() { return run(*o); };
}

} // namespace lv::cli
