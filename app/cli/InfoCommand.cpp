// longview-cli info: a recording's summary as text or JSON.
#include "CliSupport.h"
#include "Commands.h"
#include "core/ChannelType.h"

#include "core/TextEscape.h"
#include "core/TimeFormat.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace lv::cli {

namespace {

using nlohmann::ordered_json;

ordered_json ranges(const std::vector<core::TimeRange>& list)
{
    ordered_json out = ordered_json::array();
    for (const core::TimeRange& r : list) out.push_back({r.start, r.end});
    return out;
}

ordered_json toJson(const core::RecordingInfo& info)
{
    ordered_json j;
    j["format"] = info.format;
    j["path"] = info.path;
    j["start_uutc"] = info.start;
    j["end_uutc"] = info.end;
    j["times_known"] = info.timesKnown;
    j["subject"] = {{"id", info.subject.id},
                    {"name", info.subject.name},
                    {"sex", info.subject.sex},
                    {"birthdate", info.subject.birthdate}};
    j["site"] = {{"admin_code", info.site.adminCode},
                 {"technician", info.site.technician},
                 {"equipment", info.site.equipment},
                 {"location", info.site.location}};
    j["description"] = info.description;
    j["channels"] = ordered_json::array();
    for (const core::ChannelInfo& c : info.channels) {
        j["channels"].push_back({{"name", c.name},
                                 {"fs", c.fs},
                                 {"unit", c.unit},
                                 {"type", std::string(core::channelTypeName(core::guessChannelType(c)))},
                                 {"conversion_factor", c.conversionFactor},
                                 {"offset", c.offset},
                                 {"start_uutc", c.start},
                                 {"end_uutc", c.end},
                                 {"samples", c.gridLength},
                                 {"stored_samples", c.sampleCount},
                                 {"segments", ranges(c.segments)},
                                 {"gaps", ranges(c.gaps)},
                                 {"irregular", c.irregular},
                                 {"group", c.group},
                                 {"prefilter", c.prefilter}});
    }
    j["annotations"] = ordered_json::array();
    for (const core::Annotation& a : info.annotations) {
        j["annotations"].push_back({{"time_uutc", a.time},
                                    {"duration_us", a.durationUs},
                                    {"type", a.type},
                                    {"text", a.text},
                                    {"channel", a.channel ? ordered_json(*a.channel) : ordered_json(nullptr)}});
    }
    j["warnings"] = info.warnings;
    return j;
}

// Names and texts from the file, with control characters escaped (no terminal escape gets through).
std::string shown(const std::string& text) { return core::escapeControls(text); }

std::string when(const core::RecordingInfo& info, core::Uutc t)
{
    return info.timesKnown ? core::formatIso(t) : "+" + core::formatSeconds(t) + " s";
}

// The subject and site fields that are known, one line each.
void printIdentity(const core::RecordingInfo& info)
{
    const std::pair<const char*, const std::string*> fields[] = {
        {"subject", &info.subject.id},       {"name", &info.subject.name},     {"sex", &info.subject.sex},
        {"born", &info.subject.birthdate},   {"admin", &info.site.adminCode},  {"technician", &info.site.technician},
        {"equipment", &info.site.equipment}, {"location", &info.site.location}};
    for (const auto& [label, value] : fields)
        if (!value->empty()) std::printf("  %-9s %s\n", label, shown(*value).c_str());
}

void printText(const core::RecordingInfo& info)
{
    std::printf("%s\n  format    %s\n  start     %s\n  end       %s\n  duration  %s s\n  channels  %zu\n",
                shown(info.path).c_str(), shown(info.format).c_str(), when(info, info.start).c_str(),
                when(info, info.end).c_str(), core::formatSeconds(info.end - info.start).c_str(), info.channels.size());
    if (!info.timesKnown) std::printf("  times     relative (the true start is protected)\n");
    if (!info.description.empty()) std::printf("  described %s\n", shown(info.description).c_str());
    printIdentity(info);
    std::printf("\n  %-16s %10s %8s %14s %12s %9s %5s\n", "channel", "fs (Hz)", "unit", "factor", "samples", "segments",
                "gaps");
    bool irregular = false;
    for (const core::ChannelInfo& c : info.channels) {
        char rate[32];
        std::snprintf(rate, sizeof rate, c.irregular ? "~%g" : "%g", c.fs);
        irregular = irregular || c.irregular;
        std::printf("  %-16s %10s %8s %14g %12lld %9zu %5zu\n", shown(c.name).c_str(), rate, shown(c.unit).c_str(),
                    c.conversionFactor, static_cast<long long>(c.gridLength), c.segments.size(), c.gaps.size());
    }
    if (irregular) std::printf("  ~: sampled at irregular times, the median rate\n");
    if (!info.annotations.empty()) std::printf("\n  annotations (%zu)\n", info.annotations.size());
    for (const core::Annotation& a : info.annotations)
        std::printf("  %s  %-4s %s%s%s\n", when(info, a.time).c_str(), shown(a.type).c_str(), shown(a.text).c_str(),
                    a.channel ? "  [" : "", a.channel ? (shown(*a.channel) + "]").c_str() : "");
}

} // namespace

std::function<int()> addInfoCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("info", "Summary of a recording: channels, times, gaps, annotations");
    auto options = std::make_shared<CommonOptions>();
    auto json = std::make_shared<bool>(false);
    command->add_option("PATH", options->path, "Recording (.mefd directory, .mefd.tar, .timd)")->required();
    addCommonOptions(*command, *options);
    command->add_flag("--json", *json, "Print JSON");
    return [options, json]() {
        int exitCode = kOk;
        auto session = openSession(*options, exitCode);
        if (!session) return exitCode;
        const core::RecordingInfo& info = session->recording->info();
        if (*json)
            // ASCII only: control, DEL, C1 and other non-ASCII characters as \u escapes; bytes that are not
            // UTF-8 as U+FFFD (nlohmann would throw on them)
            std::printf("%s\n", toJson(info).dump(2, ' ', true, ordered_json::error_handler_t::replace).c_str());
        else
            printText(info);
        printWarnings(info.warnings);
        return static_cast<int>(kOk);
    };
}

} // namespace lv::cli
