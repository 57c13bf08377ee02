// A built-in montage built for the recording, or a montage file read.
#include "montage/LoadMontage.h"

#include "montage/EdfBrowserMontage.h"
#include "montage/MontageFile.h"

#include <filesystem>

namespace lv::montage {

core::Result<MontageBuild> loadMontage(const std::string& nameOrFile, const core::RecordingInfo& info)
{
    MontageBuild build;
    std::error_code ec;
    if (!builtinFromWord(nameOrFile) && !std::filesystem::exists(nameOrFile, ec))
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "montage \"" + nameOrFile +
                                   "\" is neither a file nor one of double-banana, transverse, average, referential");
    if (const auto builtin = builtinFromWord(nameOrFile)) {
        build = buildMontage(*builtin, info);
    } else if (nameOrFile.ends_with(".mtg")) {
        auto imported = readEdfBrowserMontage(nameOrFile, info.channels);
        if (!imported) return imported.error();
        build = {std::move(imported->montage), std::move(imported->notes)};
    } else {
        auto read = readMontageFile(nameOrFile);
        if (!read) return read.error();
        build.montage = std::move(*read);
    }
    if (build.montage.derivations.empty()) {
        std::string why = build.notes.empty() ? "it has no derivation" : build.notes.front();
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "montage " + nameOrFile + ": nothing of it fits this recording (" + why + ")",
                               info.path);
    }
    return build;
}

} // namespace lv::montage
