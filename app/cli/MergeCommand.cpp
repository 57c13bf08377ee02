// longview-cli merge: several recordings written as one (convert::MergedRecording), one engine job with convert's
// outputs and options.
#include "Commands.h"
#include "ConvertCommand.h"

#include <CLI/CLI.hpp>

namespace lv::cli {

namespace {

struct MergeOptions {
    ConvertOptions convert;
    std::vector<std::string> paths; // inputs, then the output
};

int run(MergeOptions& o)
{
    o.convert.output = o.paths.back();
    const std::vector<std::string> inputs(o.paths.begin(), o.paths.end() - 1);
    if (const int bad = checkOutputName(o.convert.output); bad != kOk) return bad;
    return runJob(jobFor(o.convert, inputs, o.convert.output), o.convert, "merge");
}

} // namespace

std::function<int()> addMergeCommand(CLI::App& app)
{
    auto* command = app.add_subcommand(
        "merge", "Merge recordings (channels by name, parts in time order, the time between them as gaps) into "
                 "OUT.csv, OUT.mefd, OUT.edf or OUT.bdf; the options are convert's");
    auto o = std::make_shared<MergeOptions>();
    command
        ->add_option("FILES", o->paths,
                     "IN1 IN2 [...] OUT: two or more input recordings, then the output (must not exist)")
        ->required()
        ->expected(3, -1);
    addConvertOptions(*command, o->convert);
    addJsonResultOption(*command, o->convert);
    return [o]() { return run(*o); };
}

} // namespace lv::cli
