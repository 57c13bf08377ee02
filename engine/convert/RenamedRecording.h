// A recording whose channels go out under other names (--rename a=b,c=d): the description renamed, reads passed on.
#pragma once

#include "core/Recording.h"

#include <memory>
#include <string>

namespace lv::convert {

class RenamedRecording final : public core::Recording {
public:
    // `renames` is "old=new,old2=new2" (empty: `inner` comes back as it is). InvalidArgument for a pair that is
    // not old=new, an old name that is no channel, or names that would then clash.
    static core::Result<std::unique_ptr<core::Recording>> wrap(std::unique_ptr<core::Recording> inner,
                                                               const std::string& renames);

    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override
    {
        return m_inner->readRaw(slices, control);
    }
    std::vector<std::string> takeWarnings() override { return m_inner->takeWarnings(); }
    std::vector<core::DamagedBlock> takeDamage() override { return m_inner->takeDamage(); }
    const core::BlockSource* blockSource() const override { return m_inner->blockSource(); }

private:
    RenamedRecording() = default;
    std::unique_ptr<core::Recording> m_inner;
    core::RecordingInfo m_info;
};

} // namespace lv::convert
