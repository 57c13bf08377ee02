// longview-cli archive / extract: deterministic .mefd.tar archives that the reader reads in place.
#include "CliSupport.h"
#include "Commands.h"

#include "io/TarWriter.h"

#include <CLI/CLI.hpp>
#include <csignal>

namespace lv::cli {

namespace {

std::string withoutSlash(std::string path)
{
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    return path;
}

int report(const core::Status& status)
{
    if (status.ok()) return kOk;
    return fail(status.error());
}

} // namespace

std::function<int()> addArchiveCommand(CLI::App& app)
{
    auto* command =
        app.add_subcommand("archive", "Pack a .mefd session into one uncompressed .mefd.tar (read in place)");
    auto session = std::make_shared<std::string>();
    auto output = std::make_shared<std::string>();
    command->add_option("SESSION", *session, "The .mefd directory")->required();
    command->add_option("OUT", *output, "The archive (default: SESSION.tar)");
    return [session, output]() {
        const std::string dir = withoutSlash(*session);
        return report(io::writeTar(dir, output->empty() ? dir + ".tar" : *output, cancelToken()));
    };
}

std::function<int()> addExtractCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("extract", "Unpack a .mefd.tar archive");
    auto archive = std::make_shared<std::string>();
    auto target = std::make_shared<std::string>(".");
    command->add_option("ARCHIVE", *archive, "The .mefd.tar archive")->required();
    command->add_option("DIR", *target, "Where to unpack (default: the current directory)");
    return [archive, target]() { return report(io::extractTar(*archive, *target, cancelToken())); };
}

} // namespace lv::cli
