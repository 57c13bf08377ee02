// longview-cli validate: every CRC, index against data, time order, metadata totals; exit 0 clean, 1 problems.
#include "CliSupport.h"
#include "Commands.h"

#include "core/TextEscape.h"
#include "formats/RecordingOpener.h"
#include "formats/edf/EdfRecording.h"
#include "formats/mef3/Validator.h"

#include <CLI/CLI.hpp>
#include <cstdio>

namespace lv::cli {

namespace {

// Not a MEF session but an EDF/BDF file: its header and records as openEdf checks them (record count against
// the file size included); each warning is a problem.
int validateEdf(const std::string& path)
{
    auto edf = formats::edf::openEdf(path);
    if (!edf) {
        std::printf("%s\n", app::errorText(edf.error()).c_str());
        return kProblemsFound;
    }
    std::vector<std::string> warnings = (*edf)->info().warnings;
    core::ReadControl control;
    control.cancel = cancelToken();
    if (const core::Status read = core::readEverySample(**edf, control); !read) {
        if (read.error().code == core::ErrorCode::Cancelled) return fail(read.error());
        warnings.push_back(app::errorText(read.error()));
    }
    const std::vector<std::string> fromSamples = (*edf)->takeWarnings(); // name the file themselves
    for (const std::string& w : warnings) std::printf("%s: %s\n", path.c_str(), core::escapeControls(w).c_str());
    for (const std::string& w : fromSamples) std::printf("%s\n", core::escapeControls(w).c_str());
    const std::string format = (*edf)->header().formatName();
    std::printf("not a MEF 3.0 session: %s is %s %s file; checked its header and every sample of %lld records: %s\n",
                path.c_str(), format[0] == 'B' ? "a" : "an", format.c_str(),
                static_cast<long long>((*edf)->recordsRead()),
                warnings.empty() && fromSamples.empty()
                    ? "no problems"
                    : (std::to_string(warnings.size() + fromSamples.size()) + " problems").c_str());
    return warnings.empty() && fromSamples.empty() ? kOk : kProblemsFound;
}

} // namespace

std::function<int()> addValidateCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("validate", "Check every CRC, index-to-data consistency, time order and totals");
    auto path = std::make_shared<std::string>();
    auto password = std::make_shared<std::string>();
    command->add_option("PATH", *path, "Session (.mefd directory, .mefd.tar, .timd) or EDF/BDF file")->required();
    command->add_option("--password", *password, "Level-1 or level-2 password of an encrypted session");
    return [path, password]() {
        if (const core::Status usable = formats::checkRecordingPath(*path); !usable) return fail(usable.error());
        if (formats::looksLikeEdf(*path)) return validateEdf(*path);
        auto problems = formats::mef3::validateSession(*path, *password, cancelToken());
        if (!problems) return fail(problems.error());
        for (const auto& p : *problems) {
            if (!p.path.empty()) std::printf("%s: ", core::escapeControls(p.path).c_str());
            std::printf("%s", core::escapeControls(p.what).c_str());
            if (p.offset >= 0) std::printf(" (at byte %lld)", static_cast<long long>(p.offset));
            std::printf("\n");
        }
        if (problems->empty()) std::printf("%s: no problems found\n", path->c_str());
        return problems->empty() ? static_cast<int>(kOk) : static_cast<int>(kProblemsFound);
    };
}

} // namespace lv::cli
