// Format dispatch: MEF 3.0 sessions (.mefd, .mefd.tar, .timd); more formats join here.
#include "formats/RecordingOpener.h"

#include "formats/mef3/MefRecording.h"

#include <filesystem>

namespace lv::formats {

core::Result<std::unique_ptr<core::Recording>> openRecording(const OpenRequest& request)
{
    std::error_code ec;
    if (!std::filesystem::exists(request.path, ec))
        return core::makeError(core::ErrorCode::NotFound, "no such file or directory", request.path);
    auto mef = mef3::openMef3(request.path, mef3::OpenOptions{request.password, request.snapshotDirectory});
    if (!mef) return mef.error();
    return std::unique_ptr<core::Recording>(std::move(*mef));
}

} // namespace lv::formats
