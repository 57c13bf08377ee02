// Format dispatch: EDF/EDF+/BDF files (by extension or content), MDF 4 files (by content), BrainVision headers (by
// extension or content), NASA CDF files (by content), MEF 3.0 sessions (.mefd, .mefd.tar, .timd).
#include "formats/RecordingOpener.h"

#include "core/AsciiLower.h"
#include "io/FileSystem.h"
#include "io/Path.h"

#include "formats/brainvision/BvRecording.h"
#include "formats/cdf/CdfRecording.h"
#include "formats/edf/EdfRecording.h"
#include "formats/mdf4/Mdf4Recording.h"
#include "formats/mef3/MefRecording.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace lv::formats {

namespace {

const char* kindOf(io::FileStatus::Kind kind)
{
    switch (kind) {
    case io::FileStatus::Kind::Fifo:
        return "a FIFO";
    case io::FileStatus::Kind::CharacterDevice:
        return "a character device";
    case io::FileStatus::Kind::BlockDevice:
        return "a block device";
    case io::FileStatus::Kind::Socket:
        return "a socket";
    default:
        return nullptr;
    }
}

} // namespace

core::Status checkRecordingPath(const std::string& path)
{
    io::FileStatus st;
    if (io::SystemError e = io::statPath(io::toPath(path), st); !e.ok()) {
        using K = io::SystemError::Kind;
        if (e.kind == K::NotFound) return core::makeError(core::ErrorCode::NotFound, "no such file or directory", path);
        if (e.kind == K::LinkLoop)
            return core::makeError(core::ErrorCode::Io, "too many levels of symbolic links", path);
        return core::makeError(core::ErrorCode::Io, "cannot open: " + e.text, path);
    }
    if (const char* kind = kindOf(st.kind))
        return core::makeError(core::ErrorCode::Unsupported, std::string("is ") + kind + ", not a recording", path);
    return {};
}

// The first 8 bytes of EDF are "0       ", of BDF "\xffBIOSEMI".
bool looksLikeEdf(const std::string& path)
{
    std::error_code ec;
    const std::filesystem::path p = io::toPath(path);
    if (!std::filesystem::is_regular_file(p, ec)) return false;
    const std::string ext = core::asciiLower(io::toUtf8(p.extension()));
    if (ext == ".edf" || ext == ".bdf") return true;
    char magic[8] = {};
    std::ifstream in(p, std::ios::binary);
    if (!in.read(magic, sizeof magic)) return false;
    return std::memcmp(magic, "0       ", 8) == 0 || std::memcmp(magic,
                                                                 "\xff"
                                                                 "BIOSEMI",
                                                                 8) == 0;
}

const std::vector<ReadableFormat>& readableFormats()
{
    static const std::vector<ReadableFormat> formats = {
        {"EDF / EDF+", {"*.edf"}, false},
        {"BDF / BDF+", {"*.bdf"}, false},
        {"MEF 3.0 session archive", {"*.mefd.tar", "*.tar"}, false},
        {"MEF 3.0 session", {"*.mefd"}, true},
        {"MEF 3.0 channel", {"*.timd"}, true},
        {"ASAM MDF 4", {"*.mf4", "*.mdf"}, false},
        {"BrainVision", {"*.vhdr"}, false},
        {"NASA CDF", {"*.cdf"}, false},
    };
    return formats;
}

const ReadableFormat* readableFormatOf(const std::string& path)
{
    std::string name = path;
    while (name.size() > 1 && name.back() == '/') name.pop_back();
    name = core::asciiLower(io::toUtf8(io::toPath(name).filename()));
    for (const ReadableFormat& format : readableFormats())
        for (const std::string& pattern : format.patterns) {
            const std::string_view suffix = std::string_view(pattern).substr(1); // "*.edf" -> ".edf"
            if (name.size() > suffix.size() && name.ends_with(suffix)) return &format;
        }
    return nullptr;
}

core::Result<std::unique_ptr<core::Recording>> openRecording(const OpenRequest& request)
{
    LV_TRY(checkRecordingPath(request.path));
    if (looksLikeEdf(request.path)) {
        auto edf = edf::openEdf(request.path);
        if (!edf) return edf.error();
        return std::unique_ptr<core::Recording>(std::move(*edf));
    }
    if (mdf4::looksLikeMdf4(request.path)) {
        auto mdf = mdf4::openMdf4(request.path);
        if (!mdf) return mdf.error();
        return std::unique_ptr<core::Recording>(std::move(*mdf));
    }
    if (brainvision::looksLikeBrainVision(request.path)) {
        auto bv = brainvision::openBrainVision(request.path);
        if (!bv) return bv.error();
        return std::unique_ptr<core::Recording>(std::move(*bv));
    }
    if (cdf::looksLikeCdf(request.path)) {
        auto cdf = cdf::openCdf(request.path);
        if (!cdf) return cdf.error();
        return std::unique_ptr<core::Recording>(std::move(*cdf));
    }
    auto mef = mef3::openMef3(
        request.path, mef3::OpenOptions{request.password, request.snapshotDirectory, request.deferSnapshotCheck});
    if (!mef) return mef.error();
    return std::unique_ptr<core::Recording>(std::move(*mef));
}

} // namespace lv::formats
