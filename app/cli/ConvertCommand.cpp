// longview-cli convert: export to CSV, MEF 3.0, EDF+ or BDF+ (the output format follows OUT's extension) as one
// engine job (convert/ConvertJob.h), the job machinery shared with merge and batch (ConvertCommand.h).
#include "ConvertCommand.h"
#include "Commands.h"
#include "JobJson.h"
#include "ProgressBars.h"

#include "annotations/AnnotationSidecar.h"
#include "convert/Targets.h"
#include "core/TextEscape.h"
#include "filter/FilterSpec.h"
#include "formats/mef3/Snapshot.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <map>

namespace lv::cli {

namespace {

// --shift-dates's value: "random" (the option without a value) or a whole number of days, either sign.
std::optional<std::int64_t> shiftDays(const std::string& text)
{
    std::int64_t days = 0;
    const char* end = text.data() + text.size();
    const auto [at, ec] = std::from_chars(text.data() + (text.starts_with('+') ? 1 : 0), end, days);
    if (ec != std::errc() || at != end || text.empty()) return std::nullopt;
    return days;
}

convert::DeidentifyOptions deidentifyOptions(const ConvertOptions& c)
{
    convert::DeidentifyOptions d;
    d.anonymize = c.anonymize;
    d.subjectId = c.subjectId;
    d.dropAnnotationText = c.dropAnnotationText;
    d.shiftDatesRandom = c.shiftDates == "random";
    if (!c.shiftDates.empty() && !d.shiftDatesRandom) d.shiftDays = shiftDays(c.shiftDates);
    return d;
}

} // namespace

int checkOutputName(const std::string& output)
{
    if (!convert::targetForOutput(output))
        return fail(core::makeError(core::ErrorCode::InvalidArgument, "cannot tell the output format of \"" + output +
                                                                          "\": use " + convert::knownTargetNames()));
    return kOk;
}

convert::ConvertJob jobFor(const ConvertOptions& c, std::vector<std::string> inputs, std::string output)
{
    convert::ConvertJob job;
    job.inputs = std::move(inputs);
    job.output = std::move(output);
    job.password = c.common.password;
    job.snapshotDirectory = formats::mef3::defaultSnapshotDirectory();
    job.selection = {c.selection.channels, c.selection.start, c.selection.end};
    job.rename = c.rename;
    job.target = {c.raw, c.time, c.fillGaps, c.blockSeconds, c.level1Password, c.level2Password, c.gaps, c.fillValue};
    job.target.csvDelimiter = c.delimiter == "semicolon" ? ';' : c.delimiter == "tab" ? '\t' : ',';
    job.target.csvDecimalComma = c.decimalComma;
    job.target.compress = !c.uncompressed;
    job.target.zarrVersion = c.zarrVersion;
    job.target.zarrValues = c.zarrDtype == "float32"   ? convert::ZarrValues::Float32
                            : c.zarrDtype == "float64" ? convert::ZarrValues::Float64
                                                       : convert::ZarrValues::Counts;
    job.verifyCrc = !c.noVerifyCrc;
    job.skipDamaged = c.skipDamaged;
    job.resample = {c.resampleRate, core::saturatingRound(c.holdSeconds * 1e6)};
    if (auto spec = filter::parseFilterSpec(c.filter)) job.filter = *spec; // checked when parsed
    job.montage = c.montage;
    job.deidentify = deidentifyOptions(c);
    job.userAnnotations = !c.noUserAnnotations;
    job.annotationDirectory = annotations::defaultDataDirectory();
    return job;
}

int runJob(const convert::ConvertJob& job, const ConvertOptions& o, const std::string& what)
{
    decode::ThreadPool pool(o.common.threads);
    ProgressBars bars(stderrIsTerminal() && !o.json);
    convert::JobEvents events;
    events.opened = [&](const core::RecordingInfo& info) { printWarnings(info.warnings); };
    if (bars.enabled()) events.progress = [&](const convert::JobProgress& p) { bars.update(0, what, p); };
    const convert::JobResult result = convert::runConvertJob(job, {&pool, cancelToken(), nullptr}, events);
    bars.finish();
    printWarnings({result.warnings.begin() + static_cast<std::ptrdiff_t>(result.openWarnings), result.warnings.end()});
    if (const std::string done = result.deidentified.summary(); result.ok && !done.empty())
        std::fprintf(stderr, "longview-cli: %s\n", core::escapeControls(done).c_str());
    if (result.ok && result.userAnnotations > 0)
        std::fprintf(stderr, "longview-cli: %zu of your annotations (from %s) went into the output\n",
                     result.userAnnotations, core::escapeControls(result.annotationFile).c_str());
    if (o.json)
        std::printf("%s\n", jobResultJson(result).dump(2, ' ', true).c_str());
    else if (result.ok && result.parts > 1) // EDF --gaps split: say which files
        for (std::size_t i = 0; i < result.parts; ++i) std::printf("%s\n", result.outputs[i].c_str());
    return result.ok ? kOk : fail(result.error);
}

namespace {

int run(const ConvertOptions& o)
{
    if (const int bad = checkOutputName(o.output); bad != kOk) return bad;
    return runJob(jobFor(o, {o.common.path}, o.output), o, "convert");
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
    command
        .add_option("--delimiter", o.delimiter,
                    "CSV output: the cell separator, comma (default), semicolon or tab (also in the annotations file)")
        ->transform(CLI::IsMember({"comma", "semicolon", "tab"}, CLI::ignore_case));
    command.add_flag("--uncompressed", o.uncompressed,
                     "MDF 4: plain DT data blocks instead of transposed-deflate DZ (larger, no inflating to read)");
    command.add_option("--zarr-version", o.zarrVersion, "Zarr output: the store's version, 2 (default) or 3")
        ->check(CLI::IsMember({2, 3}));
    command
        .add_option("--zarr-dtype", o.zarrDtype,
                    "Zarr output: counts (default: int16/int32 with scale_factor and add_offset, and a .mask array "
                    "where samples are missing), or float32/float64 physical values with NaN where missing")
        ->transform(CLI::IsMember({"counts", "float32", "float64"}, CLI::ignore_case));
    auto* resample =
        command
            .add_option("--resample", o.resampleRate,
                        "Put channels sampled at irregular times (MDF 4 CAN signals, values on change) on a grid of "
                        "RATE Hz: each grid point takes the last value before it, never across a gap longer than "
                        "--hold; needed for EDF, BDF and MEF outputs")
            ->check(CLI::PositiveNumber)
            ->type_name("RATE");
    command
        .add_option("--hold", o.holdSeconds,
                    "With --resample: the longest a value is held, in seconds (default: 10 times each channel's "
                    "median interval); longer silences stay gaps")
        ->check(CLI::PositiveNumber)
        ->type_name("MAX_GAP")
        ->needs(resample);
    addFilterOption(command, o.filter, "Write filtered values, said in the output's metadata");
    command
        .add_option("--montage", o.montage,
                    "Write a montage's derivations instead of the recorded channels: double-banana, transverse, "
                    "average, referential, or a montage file (Longview's .json, EDFbrowser's .mtg); --channels then "
                    "picks derivations (\"Fp1-F7,F7-T7\"); said in the output's metadata")
        ->type_name("FILE|NAME");
    command.add_flag("--decimal-comma", o.decimalComma,
                     "CSV output: a comma as the decimal point (spreadsheets in German, French, ... locales); needs "
                     "--delimiter semicolon or tab");
    command.add_flag("--anonymize", o.anonymize,
                     "De-identify: the subject becomes a pseudonym (--subject-id, else sub- and 8 random hex digits); "
                     "name, sex, birth date, site, descriptions and the source path are left out");
    command.add_option("--subject-id", o.subjectId, "The subject ID to write (with --anonymize: the pseudonym)");
    const CLI::Validator days(
        [](std::string& text) {
            if (text == "random") return std::string();
            const auto d = shiftDays(text);
            if (!d) return "takes a whole number of days, e.g. -400 (\"" + text + "\" is none)";
            if (*d > convert::kMaxShiftDays || *d < -convert::kMaxShiftDays)
                return "at most " + std::to_string(convert::kMaxShiftDays) + " days either way";
            return std::string();
        },
        "DAYS");
    command
        .add_option("--shift-dates", o.shiftDates,
                    "Move every time by DAYS whole days (negative: into the past); without DAYS a random shift of "
                    "365-3650 days back (forward when that would pass 1985), printed")
        ->expected(0, 1)
        ->default_str("random")
        ->check(days);
    command.add_flag("--drop-annotation-text", o.dropAnnotationText,
                     "Write annotations without their texts (types and times kept)");
    command.add_flag("--no-user-annotations", o.noUserAnnotations,
                     "Leave out your own annotations (made in the viewer, kept in IN.longview-annotations.json); "
                     "they go into the output by default");
}

void addJsonResultOption(CLI::App& command, ConvertOptions& o)
{
    command.add_flag("--json", o.json,
                     "Print the result (outputs, samples and annotations per channel, warnings) as JSON");
}

std::function<int()> addConvertCommand(CLI::App& app)
{
    auto* command = app.add_subcommand(
        "convert", "Convert a recording: OUT.csv (CSV on the common grid), OUT.mefd, OUT.edf (EDF+), OUT.bdf (BDF+), "
                   "OUT.mf4, OUT.vhdr (BrainVision) or OUT.zarr");
    auto o = std::make_shared<ConvertOptions>();
    command->add_option("IN", o->common.path, "Input recording")->required();
    command
        ->add_option(
            "OUT", o->output,
            "Output: .csv file, .mefd session, .edf, .bdf or .mf4 file, or .vhdr BrainVision set (must not exist)")
        ->required();
    addConvertOptions(*command, *o);
    addJsonResultOption(*command, *o);
    return [o]() { return run(*o); };
}

} // namespace lv::cli
