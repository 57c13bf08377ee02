// Parsing "old=new" pairs and renaming channels and their annotations.
#include "convert/RenamedRecording.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;

namespace {

core::Result<std::map<std::string, std::string>> parseRenames(const std::string& text, const core::RecordingInfo& info)
{
    std::map<std::string, std::string> renames;
    std::stringstream list(text);
    for (std::string pair; std::getline(list, pair, ',');) {
        const auto eq = pair.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size() || pair.find('=', eq + 1) != std::string::npos)
            return makeError(ErrorCode::InvalidArgument, "--rename \"" + pair + "\" is not OLD=NEW");
        const std::string from = pair.substr(0, eq);
        if (info.channelIndex(from) < 0)
            return makeError(ErrorCode::InvalidArgument, "--rename: no channel \"" + from + "\" to rename");
        if (!renames.emplace(from, pair.substr(eq + 1)).second)
            return makeError(ErrorCode::InvalidArgument, "--rename names channel \"" + from + "\" twice");
    }
    return renames;
}

} // namespace

core::Result<std::unique_ptr<core::Recording>> RenamedRecording::wrap(std::unique_ptr<core::Recording> inner,
                                                                      const std::string& renames)
{
    if (renames.empty()) return inner;
    auto map = parseRenames(renames, inner->info());
    if (!map) return map.error();
    return wrap(std::move(inner), *map);
}

core::Result<std::unique_ptr<core::Recording>> RenamedRecording::wrap(std::unique_ptr<core::Recording> inner,
                                                                      const std::map<std::string, std::string>& map)
{
    if (map.empty()) return inner;
    std::unique_ptr<RenamedRecording> r(new RenamedRecording());
    r->m_info = inner->info();
    std::set<std::string> names;
    for (core::ChannelInfo& c : r->m_info.channels) {
        if (const auto it = map.find(c.name); it != map.end()) c.name = it->second;
        if (!names.insert(c.name).second)
            return makeError(ErrorCode::InvalidArgument, "--rename: two channels would be named \"" + c.name + "\"");
    }
    for (core::Annotation& a : r->m_info.annotations)
        if (a.channel)
            if (const auto it = map.find(*a.channel); it != map.end()) a.channel = it->second;
    r->m_inner = std::move(inner);
    return std::unique_ptr<core::Recording>(std::move(r));
}

std::map<std::string, std::string> folderSafeNames(const core::RecordingInfo& info)
{
    std::set<std::string> taken;
    for (const core::ChannelInfo& c : info.channels) taken.insert(c.name);
    std::map<std::string, std::string> renames;
    for (const core::ChannelInfo& c : info.channels) {
        if (c.name.find_first_of("/\\") == std::string::npos) continue;
        std::string safe = c.name;
        std::replace(safe.begin(), safe.end(), '/', '_');
        std::replace(safe.begin(), safe.end(), '\\', '_');
        std::string unique = safe;
        for (int n = 2; taken.count(unique); ++n) unique = safe + " " + std::to_string(n);
        taken.insert(unique);
        renames[c.name] = unique;
    }
    return renames;
}

} // namespace lv::convert
