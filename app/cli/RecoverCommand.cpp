// longview-cli recover: rebuild indices and metadata from the RED blocks after a crash; report kept and dropped.
#include "CliSupport.h"
#include "Commands.h"

#include "formats/mef3/SessionRecovery.h"

#include <CLI/CLI.hpp>
#include <cstdio>

namespace lv::cli {

std::function<int()> addRecoverCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("recover", "Rebuild a session's indices and metadata after a crash");
    auto path = std::make_shared<std::string>();
    auto password = std::make_shared<std::string>();
    command->add_option("PATH", *path, "Session directory (.mefd)")->required();
    command->add_option("--password", *password, "Level-2 password of an encrypted session");
    return [path, password]() {
        auto report = formats::mef3::recoverSession(*path, *password, cancelToken());
        if (!report) return fail(report.error());
        for (const std::string& line : report->kept) std::printf("kept: %s\n", line.c_str());
        for (const std::string& line : report->dropped) std::printf("dropped: %s\n", line.c_str());
        std::printf("%s: %s\n", path->c_str(), report->changed ? "recovered" : "nothing to recover");
        return static_cast<int>(kOk);
    };
}

} // namespace lv::cli
