// Format dispatch: EDF/EDF+/BDF files (by extension or content), MEF 3.0 sessions (.mefd, .mefd.tar, .timd).
#include "formats/RecordingOpener.h"

#include "formats/edf/EdfRecording.h"
#include "formats/mef3/MefRecording.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace lv::formats {

namespace {

// A regular file named *.edf / *.bdf (any case), or one whose first 8 bytes are EDF's "0       " or BDF's
// "\xffBIOSEMI".
bool looksLikeEdf(const std::string& path)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false;
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    if (ext == ".edf" || ext == ".bdf") return true;
    char magic[8] = {};
    std::ifstream in(path, std::ios::binary);
    if (!in.read(magic, sizeof magic)) return false;
    return std::memcmp(magic, "0       ", 8) == 0 || std::memcmp(magic,
                                                                 "\xff"
                                                                 "BIOSEMI",
                                                                 8) == 0;
}

} // namespace

core::Result<std::unique_ptr<core::Recording>> openRecording(const OpenRequest& request)
{
    std::error_code ec;
    if (!std::filesystem::exists(request.path, ec))
        return core::makeError(core::ErrorCode::NotFound, "no such file or directory", request.path);
    if (looksLikeEdf(request.path)) {
        auto edf = edf::openEdf(request.path);
        if (!edf) return edf.error();
        return std::unique_ptr<core::Recording>(std::move(*edf));
    }
    auto mef = mef3::openMef3(
        request.path, mef3::OpenOptions{request.password, request.snapshotDirectory, request.deferSnapshotCheck});
    if (!mef) return mef.error();
    return std::unique_ptr<core::Recording>(std::move(*mef));
}

} // namespace lv::formats
