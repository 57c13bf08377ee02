// The longview-cli subcommands: each registers its options and runs after parsing.
#pragma once

#include <functional>

namespace CLI {
class App;
}

namespace lv::cli {

// Each returns the function that runs the parsed subcommand and yields the exit status.
std::function<int()> addInfoCommand(CLI::App& app);
std::function<int()> addConvertCommand(CLI::App& app);
std::function<int()> addMergeCommand(CLI::App& app);
std::function<int()> addStatsCommand(CLI::App& app);
std::function<int()> addSpectrumCommand(CLI::App& app);
std::function<int()> addArchiveCommand(CLI::App& app);
std::function<int()> addExtractCommand(CLI::App& app);
std::function<int()> addValidateCommand(CLI::App& app);
std::function<int()> addRecoverCommand(CLI::App& app);
std::function<int()> addSynthCommand(CLI::App& app);
std::function<int()> addBatchCommand(CLI::App& app);

} // namespace lv::cli
