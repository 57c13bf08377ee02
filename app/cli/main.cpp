// longview-cli: command-line access to the Longview engine (info, convert, merge, stats, archive, extract,
// validate, recover, synth).
#include "CliSupport.h"
#include "Commands.h"

#include "core/Version.h"

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>

int main(int argc, char** argv)
{
#ifdef SIGXFSZ
    std::signal(SIGXFSZ, SIG_IGN); // a file size limit fails the write with a message instead of killing us
#endif
    CLI::App app{"longview-cli: inspect, check, convert and merge long multi-channel recordings"};
    app.name("longview-cli");
    app.set_version_flag("--version", std::string("longview-cli ") + lv::core::kVersion);
    app.require_subcommand(1);
    const std::vector<std::pair<CLI::App*, std::function<int()>>> commands = [&] {
        std::vector<std::pair<CLI::App*, std::function<int()>>> list;
        for (auto add : {lv::cli::addInfoCommand, lv::cli::addConvertCommand, lv::cli::addMergeCommand,
                         lv::cli::addStatsCommand, lv::cli::addSpectrumCommand, lv::cli::addArchiveCommand,
                         lv::cli::addExtractCommand, lv::cli::addValidateCommand, lv::cli::addRecoverCommand,
                         lv::cli::addSynthCommand, lv::cli::addBatchCommand}) {
            auto run = add(app);
            list.emplace_back(app.get_subcommands({}).back(), std::move(run));
        }
        return list;
    }();
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return lv::cli::kUsage;
    }
    for (const auto& [command, run] : commands)
        if (command->parsed()) return run();
    return lv::cli::kUsage;
}
