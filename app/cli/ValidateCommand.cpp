// longview-cli validate: every CRC, index against data, time order, metadata totals; exit 0 clean, 1 problems;
// the problems as lines or (--json) as a JSON result.
#include "CliSupport.h"
#include "Commands.h"

#include "core/TextEscape.h"
#include "formats/RecordingOpener.h"
#include "formats/brainvision/BvRecording.h"
#include "formats/cdf/CdfRecording.h"
#include "formats/edf/EdfRecording.h"
#include "formats/mdf4/Mdf4Recording.h"
#include "formats/mef3/Validator.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace lv::cli {

namespace {

using formats::mef3::Problem;

struct Report {
    std::string format;
    std::vector<Problem> problems;
    std::string summary; // the last line of the text form
};

// Every warning of the open and of a read of every sample, as problems; a failed read is one too.
core::Status checkEverySample(core::Recording& recording, const std::string& path, Report& report)
{
    for (const std::string& w : recording.info().warnings) report.problems.push_back({path, -1, w});
    core::ReadControl control;
    control.cancel = cancelToken();
    if (const core::Status read = core::readEverySample(recording, control); !read) {
        if (read.error().code == core::ErrorCode::Cancelled) return read.error();
        report.problems.push_back({path, -1, app::errorText(read.error())});
    }
    for (const std::string& w : recording.takeWarnings()) report.problems.push_back({"", -1, w}); // they name the file
    return {};
}

std::string problemCount(const Report& report)
{
    return report.problems.empty() ? "no problems" : std::to_string(report.problems.size()) + " problems";
}

// Not a MEF session but an EDF/BDF file: its header and records as openEdf checks them (record count against
// the file size included) and every sample against its digital range; each warning is a problem.
core::Result<Report> validateEdf(const std::string& path)
{
    Report report;
    auto edf = formats::edf::openEdf(path);
    if (!edf) {
        report.format = "EDF";
        report.problems.push_back({"", -1, app::errorText(edf.error())});
        return report;
    }
    LV_TRY(checkEverySample(**edf, path, report));
    report.format = (*edf)->header().formatName();
    report.summary = "not a MEF 3.0 session: " + path + " is " + (report.format[0] == 'B' ? "a " : "an ") +
                     report.format + " file; checked its header and every sample of " +
                     std::to_string((*edf)->recordsRead()) + " records: " + problemCount(report);
    return report;
}

// An MDF 4 file: its block tree, every channel group's data as the reader opens it, and every sample; what the
// open leaves out or doubts (irregular groups, record counts) is a problem, as a warning is.
core::Result<Report> validateMdf4(const std::string& path)
{
    Report report;
    report.format = "MDF 4";
    auto mdf = formats::mdf4::openMdf4(path);
    if (!mdf) {
        report.problems.push_back({"", -1, app::errorText(mdf.error())});
        return report;
    }
    LV_TRY(checkEverySample(**mdf, path, report));
    const std::vector<std::string>& limits = (*mdf)->limits();
    std::erase_if(report.problems,
                  [&](const Problem& p) { return std::find(limits.begin(), limits.end(), p.what) != limits.end(); });
    report.format = (*mdf)->info().format;
    report.summary =
        "not a MEF 3.0 session: " + path + " is an " + report.format +
        " file; checked its blocks and every sample of " + std::to_string((*mdf)->info().channels.size()) +
        " channels: " + problemCount(report) +
        (limits.empty() ? "" : " (" + std::to_string(limits.size()) + " notes on what is not read exactly: see info)");
    return report;
}

// A BrainVision file set: its header and markers as the reader opens them, the data file's size against the header,
// and every sample; each warning is a problem.
core::Result<Report> validateBrainVision(const std::string& path)
{
    Report report;
    report.format = "BrainVision";
    auto bv = formats::brainvision::openBrainVision(path);
    if (!bv) {
        report.problems.push_back({"", -1, app::errorText(bv.error())});
        return report;
    }
    LV_TRY(checkEverySample(**bv, path, report));
    report.format = (*bv)->info().format;
    report.summary = "not a MEF 3.0 session: " + path + " is a " + report.format +
                     " file set; checked its header, markers and every sample of " +
                     std::to_string((*bv)->info().channels.size()) + " channels: " + problemCount(report);
    return report;
}

// A CDF file: its descriptor records and epochs as the reader opens them, and every sample of every channel; what
// the open leaves out or rounds (texts, float steps) is a note, not a problem.
core::Result<Report> validateCdf(const std::string& path)
{
    Report report;
    report.format = "CDF";
    auto cdf = formats::cdf::openCdf(path);
    if (!cdf) {
        report.problems.push_back({"", -1, app::errorText(cdf.error())});
        return report;
    }
    LV_TRY(checkEverySample(**cdf, path, report));
    const std::vector<std::string>& limits = (*cdf)->limits();
    std::erase_if(report.problems,
                  [&](const Problem& p) { return std::find(limits.begin(), limits.end(), p.what) != limits.end(); });
    report.format = (*cdf)->info().format;
    report.summary =
        "not a MEF 3.0 session: " + path + " is a " + report.format +
        " file; checked its records and every sample of " + std::to_string((*cdf)->info().channels.size()) +
        " channels: " + problemCount(report) +
        (limits.empty() ? "" : " (" + std::to_string(limits.size()) + " notes on what is not read exactly: see info)");
    return report;
}

void printText(const Report& report, const std::string& path)
{
    for (const Problem& p : report.problems) {
        if (!p.path.empty()) std::printf("%s: ", core::escapeControls(p.path).c_str());
        std::printf("%s", core::escapeControls(p.what).c_str());
        if (p.offset >= 0) std::printf(" (at byte %lld)", static_cast<long long>(p.offset));
        std::printf("\n");
    }
    if (!report.summary.empty())
        std::printf("%s\n", core::escapeControls(report.summary).c_str());
    else if (report.problems.empty())
        std::printf("%s: no problems found\n", core::escapeControls(path).c_str());
}

// {"path", "format", "ok", "problems": [{"path", "offset", "what"}]}: each problem's path is the file it names
// (null when its text names it), its offset null when it has none.
void printJson(const Report& report, const std::string& path)
{
    nlohmann::json problems = nlohmann::json::array();
    for (const Problem& p : report.problems)
        problems.push_back({{"path", p.path.empty() ? nlohmann::json() : nlohmann::json(p.path)},
                            {"offset", p.offset >= 0 ? nlohmann::json(p.offset) : nlohmann::json()},
                            {"what", p.what}});
    const nlohmann::json out = {
        {"path", path}, {"format", report.format}, {"ok", report.problems.empty()}, {"problems", problems}};
    std::printf("%s\n", out.dump(2, ' ', true).c_str());
}

} // namespace

std::function<int()> addValidateCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("validate", "Check every CRC, index-to-data consistency, time order and totals");
    auto path = std::make_shared<std::string>();
    auto password = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    command
        ->add_option("PATH", *path,
                     "Session (.mefd directory, .mefd.tar, .timd), EDF/BDF, MDF 4 or CDF file, or BrainVision header")
        ->required();
    command->add_option("--password", *password, "Level-1 or level-2 password of an encrypted session");
    command->add_flag("--json", *json, "Print the problems as JSON");
    return [path, password, json]() {
        if (const core::Status usable = formats::checkRecordingPath(*path); !usable) return fail(usable.error());
        core::Result<Report> report = Report{};
        if (formats::looksLikeEdf(*path)) {
            report = validateEdf(*path);
        } else if (formats::mdf4::looksLikeMdf4(*path)) {
            report = validateMdf4(*path);
        } else if (formats::brainvision::looksLikeBrainVision(*path)) {
            report = validateBrainVision(*path);
        } else if (formats::cdf::looksLikeCdf(*path)) {
            report = validateCdf(*path);
        } else {
            auto problems = formats::mef3::validateSession(*path, *password, cancelToken());
            if (problems)
                report = Report{"MEF 3.0", std::move(*problems), ""};
            else
                report = problems.error();
        }
        if (!report) return fail(report.error());
        if (*json)
            printJson(*report, *path);
        else
            printText(*report, *path);
        return report->problems.empty() ? static_cast<int>(kOk) : static_cast<int>(kProblemsFound);
    };
}

} // namespace lv::cli
