// The strings of MDF 4 text channels (log messages, comments written on input) as annotations of the recording.
#pragma once

#include "core/RecordingInfo.h"
#include "formats/mdf4/Mdf4Structure.h"
#include "io/ByteSource.h"

#include <span>
#include <string>
#include <vector>

namespace lv::formats::mdf4 {

// Strings kept per text channel; a longer channel gives its first ones and a warning.
inline constexpr std::size_t kMaxTextAnnotations = 10000;

// Each valid, non-empty string of `channels` (text channels of group `group`) as an annotation at its record's time
// (`timesS`: seconds after `start`), its type the channel's name and its text the string (after the channel's
// conversion). Appends to `out`; what is left out goes to `warnings`. A data group too large to read at open
// (over 256 MiB) gives a warning, not an error.
core::Status textAnnotations(const io::ByteSource& file, const DataGroup& dg, const ChannelGroup& group,
                             std::span<const Channel* const> channels, std::span<const double> timesS, core::Uutc start,
                             std::vector<core::Annotation>& out, std::vector<std::string>& warnings);

// A string channel (Latin-1, UTF-8 or UTF-16, fixed length or VLSD) that is not a master.
bool isTextChannel(const Channel& c);

} // namespace lv::formats::mdf4
