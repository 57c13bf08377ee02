// A recording whose channels go out under other names (--rename a=b,c=d): the description renamed, reads passed on.
#pragma once

#include "convert/DescribedRecording.h"

#include <map>
#include <memory>
#include <string>

namespace lv::convert {

class RenamedRecording final : public DescribedRecording {
public:
    // `renames` is "old=new,old2=new2" (empty: `inner` comes back as it is). InvalidArgument for a pair that is
    // not old=new, an old name that is no channel, or names that would then clash.
    static core::Result<std::unique_ptr<core::Recording>> wrap(std::unique_ptr<core::Recording> inner,
                                                               const std::string& renames);
    // The same with the names given as old -> new.
    static core::Result<std::unique_ptr<core::Recording>> wrap(std::unique_ptr<core::Recording> inner,
                                                               const std::map<std::string, std::string>& renames);

private:
    RenamedRecording() = default;
};

// Names a format that keeps each channel in a folder of its name (MEF 3.0) cannot take, each with a '/' or '\\'
// made '_' (made unique with " 2", " 3"... against every name of `info`): old -> new.
std::map<std::string, std::string> folderSafeNames(const core::RecordingInfo& info);

} // namespace lv::convert
