// longview-cli validate: every CRC, index against data, time order, metadata totals; exit 0 clean, 1 problems.
#include "CliSupport.h"
#include "Commands.h"

#include "formats/mef3/Validator.h"

#include <CLI/CLI.hpp>
#include <cstdio>

namespace lv::cli {

std::function<int()> addValidateCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("validate", "Check every CRC, index-to-data consistency, time order and totals");
    auto path = std::make_shared<std::string>();
    auto password = std::make_shared<std::string>();
    command->add_option("PATH", *path, "Session (.mefd directory, .mefd.tar, .timd)")->required();
    command->add_option("--password", *password, "Level-1 or level-2 password of an encrypted session");
    return [path, password]() {
        auto problems = formats::mef3::validateSession(*path, *password, cancelToken());
        if (!problems) return fail(problems.error());
        for (const auto& p : *problems) {
            std::printf("%s: %s", p.path.c_str(), p.what.c_str());
            if (p.offset >= 0) std::printf(" (at byte %lld)", static_cast<long long>(p.offset));
            std::printf("\n");
        }
        if (problems->empty()) std::printf("%s: no problems found\n", path->c_str());
        return problems->empty() ? static_cast<int>(kOk) : static_cast<int>(kProblemsFound);
    };
}

} // namespace lv::cli
