// The montage a user names: a built-in's word, a Longview montage file (.json) or an EDFbrowser one (.mtg).
#pragma once

#include "core/Error.h"
#include "core/RecordingInfo.h"
#include "montage/BuiltinMontages.h"

#include <string>

namespace lv::montage {

// "double-banana", "transverse", "average", "referential" (BuiltinMontages), else a file: EDFbrowser's XML when it
// ends in .mtg, Longview's JSON otherwise. The notes say what could not be built or imported. InvalidArgument when
// nothing of it could be built for this recording.
core::Result<MontageBuild> loadMontage(const std::string& nameOrFile, const core::RecordingInfo& info);

} // namespace lv::montage
