// The records of a data group (DT, DZ deflate and transposed deflate, DL and HL lists, in order) and one channel's
// samples taken from them: raw values by data type and bit layout, the conversion, invalid samples as NaN.
#pragma once

#include "core/Error.h"
#include "formats/mdf4/Mdf4Structure.h"
#include "io/ByteSource.h"

#include <cstdint>
#include <vector>

namespace lv::formats::mdf4 {

// The whole record stream of a data group, uncompressed; at most `maxBytes` (a larger one is Unsupported).
core::Result<std::vector<std::uint8_t>> readDataGroupBytes(const io::ByteSource& file, const DataGroup& dg,
                                                           std::uint64_t maxBytes = std::uint64_t{1} << 32);

// The records of channel group `group` taken out of an unsorted data group's stream (several groups' records
// interleaved, each after its record id; VLSD groups' records are a u32 length and the bytes): its own records
// back to back, ids removed.
core::Result<std::vector<std::uint8_t>> recordsOfGroup(const io::ByteSource& file, const DataGroup& dg,
                                                       const ChannelGroup& group,
                                                       const std::vector<std::uint8_t>& stream);

// Channel `channel` of group `group` (of data group `dg`, sorted or unsorted) from that data group's record
// stream: physical values (a sample whose invalidation bit is set is NaN). Numbers only: strings, byte arrays and
// text conversions are Unsupported here.
core::Result<std::vector<double>> channelValues(const io::ByteSource& file, const DataGroup& dg,
                                                const ChannelGroup& group, const Channel& channel,
                                                const std::vector<std::uint8_t>& records);

// The raw value of a numeric channel in one record (no conversion).
double rawValue(const Channel& channel, const std::uint8_t* record);

// Whether the sample of `channel` in `record` (its data bytes, after any record id) is invalid: the channel is all
// invalid, or its invalidation bit in the record's invalidation bytes is set.
bool sampleInvalid(const ChannelGroup& group, const Channel& channel, const std::uint8_t* record);

// The physical value of `channel` in record number `index` (a virtual channel's raw value is the index); NaN when
// the sample is invalid.
double physicalValue(const ChannelGroup& group, const Channel& channel, const std::uint8_t* record,
                     std::uint64_t index);

// A numeric channel's field and invalidation bit inside its group's record: Corrupt naming the channel when not.
core::Status checkChannelLayout(const io::ByteSource& file, const ChannelGroup& group, const Channel& channel);

} // namespace lv::formats::mdf4
