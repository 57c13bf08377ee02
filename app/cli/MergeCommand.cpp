// longview-cli merge: several recordings written as one, concatenated in time (convert::MergedRecording, with an
// overlap policy) or stacked side by side (convert::StackedRecording), one engine job with convert's outputs and
// options; --dry-run prints the merged time line instead (text or JSON) and writes nothing.
#include "Commands.h"
#include "ConvertCommand.h"

#include "convert/MergedRecording.h"
#include "core/TextEscape.h"
#include "core/TimeFormat.h"
#include "formats/mef3/Snapshot.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace lv::cli {

namespace {

struct MergeOptions {
    ConvertOptions convert;
    std::vector<std::string> paths; // inputs, then the output
    convert::MergeOptions merge;
    bool dryRun = false;
};

// `object` with the range's "start_uutc" and "end_uutc".
nlohmann::json withRange(nlohmann::json object, core::TimeRange r)
{
    object["start_uutc"] = r.start;
    object["end_uutc"] = r.end;
    return object;
}

nlohmann::json timelineJson(const convert::MergeTimeline& t)
{
    nlohmann::json j = {{"mode", convert::mergeModeName(t.options.mode)},
                        {"overlap", convert::overlapPolicyName(t.options.overlap)},
                        {"start_uutc", t.span.start},
                        {"end_uutc", t.span.end},
                        {"inputs", nlohmann::json::array()},
                        {"channels", nlohmann::json::array()},
                        {"warnings", t.warnings},
                        {"ok", !t.error}};
    for (const auto& in : t.inputs)
        j["inputs"].push_back(withRange({{"path", in.path}, {"format", in.format}}, in.span));
    for (const auto& ch : t.channels) {
        nlohmann::json c = withRange({{"name", ch.name}, {"fs", ch.fs}, {"unit", ch.unit}}, ch.span);
        c["parts"] = nlohmann::json::array();
        for (const auto& p : ch.parts)
            c["parts"].push_back(withRange({{"input", p.input}, {"channel", p.sourceChannel}}, p.span));
        c["gaps"] = nlohmann::json::array();
        for (const auto& g : ch.gaps) c["gaps"].push_back({g.start, g.end});
        c["overlaps"] = nlohmann::json::array();
        for (const auto& o : ch.overlaps)
            c["overlaps"].push_back(withRange({{"inputs", {o.earlier, o.later}},
                                               {"kept", o.kept ? nlohmann::json(*o.kept) : nlohmann::json()},
                                               {"dropped_samples", o.droppedSamples}},
                                              o.range));
        j["channels"].push_back(std::move(c));
    }
    if (t.error) j["error"] = app::errorText(*t.error, app::Audience::Gui);
    return j;
}

std::string span(core::TimeRange r) { return core::formatIso(r.start) + " to " + core::formatIso(r.end); }

void printTimeline(const convert::MergeTimeline& t)
{
    std::printf("merge (%s, overlaps: %s) of %zu inputs, %s\n", convert::mergeModeName(t.options.mode),
                convert::overlapPolicyName(t.options.overlap), t.inputs.size(), span(t.span).c_str());
    for (std::size_t i = 0; i < t.inputs.size(); ++i)
        std::printf("  [%zu] %s (%s) %s\n", i + 1, core::escapeControls(t.inputs[i].path).c_str(),
                    core::escapeControls(t.inputs[i].format).c_str(), span(t.inputs[i].span).c_str());
    for (const auto& ch : t.channels) {
        std::printf("%s: %g Hz, %s\n", core::escapeControls(ch.name).c_str(), ch.fs,
                    core::escapeControls(ch.unit).c_str());
        for (const auto& p : ch.parts)
            std::printf("  [%zu] %s: %s\n", p.input + 1, core::escapeControls(p.sourceChannel).c_str(),
                        span(p.span).c_str());
        for (const auto& g : ch.gaps) std::printf("  gap %s\n", span(g).c_str());
        for (const auto& o : ch.overlaps) {
            std::printf("  overlap of [%zu] and [%zu] %s", o.earlier + 1, o.later + 1, span(o.range).c_str());
            if (o.kept)
                std::printf(": [%zu] kept, %lld samples of [%zu] left out\n", *o.kept + 1,
                            static_cast<long long>(o.droppedSamples), (*o.kept == o.earlier ? o.later : o.earlier) + 1);
            else
                std::printf(": refused (--overlap first or last keeps one)\n");
        }
    }
}

int dryRun(const MergeOptions& o, const std::vector<std::string>& inputs)
{
    cancelToken();
    auto timeline =
        convert::planMerge(inputs, o.convert.common.password, formats::mef3::defaultSnapshotDirectory(), o.merge);
    if (!timeline) return fail(timeline.error());
    if (o.convert.json)
        std::printf("%s\n", timelineJson(*timeline).dump(2, ' ', true).c_str());
    else
        printTimeline(*timeline);
    return timeline->error ? fail(*timeline->error) : static_cast<int>(kOk);
}

int run(MergeOptions& o)
{
    o.convert.output = o.paths.back();
    const std::vector<std::string> inputs(o.paths.begin(), o.paths.end() - 1);
    if (const int bad = checkOutputName(o.convert.output); bad != kOk) return bad;
    if (o.merge.mode == convert::MergeMode::Stack && o.merge.overlap != convert::OverlapPolicy::Error)
        return fail(core::makeError(core::ErrorCode::InvalidArgument,
                                    "--overlap applies to --mode concat (stacked channels do not overlap)"));
    if (o.dryRun) return dryRun(o, inputs);
    convert::ConvertJob job = jobFor(o.convert, inputs, o.convert.output);
    job.merge = o.merge;
    return runJob(job, o.convert, "merge");
}

} // namespace

std::function<int()> addMergeCommand(CLI::App& app)
{
    auto* command = app.add_subcommand(
        "merge",
        "Merge recordings into OUT.csv, OUT.mefd, OUT.edf, OUT.bdf or OUT.mf4: concatenated in time (channels by name, "
        "the time between them as gaps) or stacked side by side; the options are convert's");
    auto o = std::make_shared<MergeOptions>();
    command
        ->add_option("FILES", o->paths,
                     "IN1 IN2 [...] OUT: two or more input recordings, then the output (must not exist)")
        ->required()
        ->expected(3, -1);
    const std::map<std::string, convert::MergeMode> modes{{"concat", convert::MergeMode::Concat},
                                                          {"stack", convert::MergeMode::Stack}};
    command
        ->add_option("--mode", o->merge.mode,
                     "concat (default): the same channels one after the other in time; stack: every input's "
                     "channels side by side (a name in several inputs gets the file name as prefix, a:Fp1)")
        ->transform(CLI::CheckedTransformer(modes, CLI::ignore_case));
    const std::map<std::string, convert::OverlapPolicy> overlaps{{"error", convert::OverlapPolicy::Error},
                                                                 {"first", convert::OverlapPolicy::First},
                                                                 {"last", convert::OverlapPolicy::Last}};
    command
        ->add_option("--overlap", o->merge.overlap,
                     "concat, where inputs overlap in time: error (default: refuse), first (keep the earlier "
                     "input's samples) or last (the later's)")
        ->transform(CLI::CheckedTransformer(overlaps, CLI::ignore_case));
    command->add_flag("--dry-run", o->dryRun,
                      "Print the merged time line (inputs, per channel its parts, gaps and overlaps) and write "
                      "nothing; with --json as JSON");
    addConvertOptions(*command, o->convert);
    addJsonResultOption(*command, o->convert);
    return [o]() { return run(*o); };
}

} // namespace lv::cli
