// Strings of MDF 4 channels (fixed-length in records, or VLSD: SD blocks or a VLSD channel group) as UTF-8, and
// every channel's samples as physical values, numbers or texts, as mdf-check dumps them.
#pragma once

#include "core/Error.h"
#include "formats/mdf4/Mdf4Conversion.h"
#include "formats/mdf4/Mdf4Structure.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lv::formats::mdf4 {

// A stored string of data type `type` (Latin-1, UTF-8, UTF-16 LE/BE) as UTF-8, cut at its first NUL; bytes that
// do not decode become U+FFFD (Python's "replace", as mdf-check).
std::string decodeString(DataType type, const std::uint8_t* bytes, std::size_t size);

// The strings of string channel `channel` (fixed length or VLSD) of group `group`, one per record, from the data
// group's record stream (`records`, as readDataGroupBytes gives it; an unsorted group's records are picked out
// here). A VLSD channel's signal data (SD, DZ of SD, DL of those) is read here; a value running past the end of
// its signal data, or a record offset that starts no value, is Corrupt. No conversion is applied.
core::Result<std::vector<std::string>> channelTexts(const io::ByteSource& file, const DataGroup& dg,
                                                    const ChannelGroup& group, const Channel& channel,
                                                    const std::vector<std::uint8_t>& records);

// Every sample of a numeric or string channel as mdf-check gives it: the conversion applied (value-to-text tables
// give texts for some raw values and numbers for others), `invalid` set where the invalidation bit is.
struct ChannelSamples {
    std::vector<Physical> values;
    std::vector<std::uint8_t> invalid; // 1 where the sample is invalid
};
core::Result<ChannelSamples> channelSamples(const io::ByteSource& file, const DataGroup& dg, const ChannelGroup& group,
                                            const Channel& channel, const std::vector<std::uint8_t>& records);

} // namespace lv::formats::mdf4
