// longview-cli convert: export to CSV, MEF 3.0, EDF+ or BDF+ (the output format follows OUT's extension); the
// export machinery is shared with merge (ConvertCommand.h).
#include "ConvertCommand.h"
#include "Commands.h"

#include "convert/RenamedRecording.h"
#include "convert/Targets.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <map>

namespace lv::cli {

namespace {

// Runs the export that OUT's extension names (convert/Targets.h).
core::Status exportTo(Session& session, const Selection& selection, const ConvertOptions& o,
                      const core::ReadControl& control)
{
    const convert::TargetOptions target{
        o.raw, o.time, o.fillGaps, o.blockSeconds, o.level1Password, o.level2Password, o.gaps, o.fillValue};
    auto written =
        convert::exportTo(*session.recording, {selection.channels, selection.range}, target, o.output, control);
    if (!written) return written.error();
    finishProgress();
    printWarnings(written->warnings);
    if (written->files.size() > 1)
        for (const std::string& f : written->files) std::printf("%s\n", f.c_str());
    return {};
}

} // namespace

int checkOutputName(const std::string& output)
{
    if (!convert::targetForOutput(output))
        return fail(core::makeError(core::ErrorCode::InvalidArgument, "cannot tell the output format of \"" + output +
                                                                          "\": use " + convert::knownTargetNames()));
    return kOk;
}

int runConversion(Session& session, const ConvertOptions& o, const std::string& what)
{
    int exitCode = kOk;
    printWarnings(session.recording->info().warnings);
    auto selection = select(session.recording->info(), o.selection, exitCode);
    if (!selection) return exitCode;
    auto renamed = convert::RenamedRecording::wrap(std::move(session.recording), o.rename);
    if (!renamed) return fail(renamed.error());
    session.recording = std::move(*renamed);
    core::ReadControl control = readControl(session, what);
    control.verifyCrc = !o.noVerifyCrc;
    control.skipDamagedBlocks = o.skipDamaged;
    const core::Status status = exportTo(session, *selection, o, control);
    finishProgress();
    printWarnings(session.recording->takeWarnings());
    return status.ok() ? kOk : fail(status.error());
}

namespace {

int run(const ConvertOptions& o)
{
    if (const int bad = checkOutputName(o.output); bad != kOk) return bad;
    int exitCode = kOk;
    auto session = openSession(o.common, exitCode);
    if (!session) return exitCode;
    return runConversion(*session, o, "convert");
}

} // namespace

void addConvertOptions(CLI::App& command, ConvertOptions& o)
{
    addCommonOptions(command, o.common);
    addSelectionOptions(command, o.selection);
    command.add_option("--rename", o.rename,
                       "Output channel names: OLD=NEW,OLD2=NEW2 (--channels takes the input's names)");
    command.add_flag("--raw", o.raw, "Stored integer counts instead of physical values");
    command.add_flag("--fill-gaps", o.fillGaps, "Keep rows where every channel is in a gap (empty cells)");
    command.add_flag("--skip-damaged", o.skipDamaged,
                     "Read a damaged block as missing samples, with a warning and a \"Damaged\" annotation in the "
                     "output (default: a damaged block fails the conversion, exit 3)");
    command.add_flag("--no-verify-crc", o.noVerifyCrc,
                     "Do not check the MEF data blocks' CRCs (checked by default; EDF/BDF have none)");
    command
        .add_option("--block-seconds", o.blockSeconds,
                    "MEF output: RED block length in seconds (default: 10 s, at most 32768 samples)")
        ->check(CLI::PositiveNumber);
    command.add_option("--level1-password", o.level1Password, "MEF output: level-1 password (channel metadata)");
    command.add_option("--level2-password", o.level2Password,
                       "MEF output: level-2 password (subject data, time offset)");
    const std::map<std::string, convert::GapPolicy> gaps{{"discontinuous", convert::GapPolicy::Discontinuous},
                                                         {"split", convert::GapPolicy::Split},
                                                         {"fill", convert::GapPolicy::Fill}};
    command
        .add_option("--gaps", o.gaps,
                    "EDF/BDF output: discontinuous (EDF+D, default), split (one file per part) or fill")
        ->transform(CLI::CheckedTransformer(gaps, CLI::ignore_case));
    command.add_option("--fill-value", o.fillValue,
                       "EDF/BDF output: physical value written where there is no sample (default 0; annotated)");
    const std::map<std::string, convert::TimeColumn> times{{"seconds", convert::TimeColumn::Seconds},
                                                           {"iso", convert::TimeColumn::Iso},
                                                           {"uutc", convert::TimeColumn::Uutc}};
    command.add_option("--time", o.time, "Time column: seconds from the start (default), iso, or uutc")
        ->transform(CLI::CheckedTransformer(times, CLI::ignore_case));
}

std::function<int()> addConvertCommand(CLI::App& app)
{
    auto* command = app.add_subcommand(
        "convert", "Convert a recording: OUT.csv (CSV on the common grid), OUT.mefd, OUT.edf (EDF+) or OUT.bdf (BDF+)");
    auto o = std::make_shared<ConvertOptions>();
    command->add_option("IN", o->common.path, "Input recording")->required();
    command->add_option("OUT", o->output, "Output: .csv file, .mefd session, .edf or .bdf file (must not exist)")
        ->required();
    addConvertOptions(*command, *o);
    return [o]() { return run(*o); };
}

} // namespace lv::cli
