// Temporary output directories: io::Temporary does the naming, locking, dead-run sweep and no-replace move.
#include "convert/TempTarget.h"

namespace lv::convert {

core::Result<std::string> TempTarget::reserve(const std::string& target)
{
    auto temp = io::Temporary::create(target, io::Temporary::Kind::Directory);
    if (!temp) return temp.error();
    m_temp = std::move(*temp);
    return m_temp.path();
}

core::Status TempTarget::commit(const std::string& target) { return m_temp.publish(target); }

} // namespace lv::convert
