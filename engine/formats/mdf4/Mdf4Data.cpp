// A data group's whole record stream and numeric channels decoded from it.
#include "formats/mdf4/Mdf4Data.h"

#include "core/LittleEndian.h"
#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4Conversion.h"
#include "formats/mdf4/Mdf4Stream.h"

#include <bit>
#include <cmath>
#include <limits>
#include <map>

namespace lv::formats::mdf4 {

namespace le = core::le;

core::Result<std::vector<std::uint8_t>> readDataGroupBytes(const io::ByteSource& file, const DataGroup& dg,
                                                           std::uint64_t maxBytes)
{
    auto stream = indexDataStream(file, dg.dataLink, maxBytes);
    if (!stream) return stream.error();
    std::vector<std::uint8_t> out(stream->bytes);
    LV_TRY(readStreamRange(file, *stream, 0, out));
    return out;
}

double rawValue(const Channel& c, const std::uint8_t* record)
{
    const std::uint8_t* p = record + c.byteOffset;
    const std::size_t bytes = (c.bitOffset + c.bitCount + 7) / 8;
    const bool big = c.dataType == DataType::UintBe || c.dataType == DataType::IntBe || c.dataType == DataType::FloatBe;
    std::uint64_t word = 0;
    for (std::size_t i = 0; i < bytes && i < 8; ++i) word |= std::uint64_t{p[big ? bytes - 1 - i : i]} << (8 * i);
    if (c.dataType == DataType::FloatLe || c.dataType == DataType::FloatBe) {
        if (c.bitCount == 64) return std::bit_cast<double>(word);
        if (c.bitCount == 32) return std::bit_cast<float>(static_cast<std::uint32_t>(word));
        return std::numeric_limits<double>::quiet_NaN();
    }
    word >>= c.bitOffset;
    if (c.bitCount < 64) word &= (std::uint64_t{1} << c.bitCount) - 1;
    const bool isSigned = c.dataType == DataType::IntLe || c.dataType == DataType::IntBe;
    if (isSigned && c.bitCount < 64 && c.bitCount > 0 && (word >> (c.bitCount - 1)) & 1u)
        word |= ~std::uint64_t{0} << c.bitCount;
    return isSigned ? static_cast<double>(static_cast<std::int64_t>(word)) : static_cast<double>(word);
}

bool sampleInvalid(const ChannelGroup& group, const Channel& channel, const std::uint8_t* record)
{
    if (channel.allInvalid()) return true;
    const std::uint64_t bit = channel.invalidBit;
    return channel.hasInvalidationBit() && (record[group.dataBytes + bit / 8] >> (bit % 8)) & 1u;
}

double physicalValue(const ChannelGroup& group, const Channel& channel, const std::uint8_t* record, std::uint64_t index)
{
    const bool virtualChannel = channel.kind == ChannelKind::VirtualMaster || channel.kind == ChannelKind::VirtualData;
    const double raw = virtualChannel ? static_cast<double>(index) : rawValue(channel, record);
    if (sampleInvalid(group, channel, record)) return std::nan("");
    return channel.hasConversion ? convert(*channel.conversion, raw) : raw;
}

core::Status checkChannelLayout(const io::ByteSource& file, const ChannelGroup& group, const Channel& channel)
{
    const std::uint64_t fieldEnd = channel.byteOffset + (std::uint64_t{channel.bitOffset} + channel.bitCount + 7) / 8;
    const bool virtualChannel = channel.kind == ChannelKind::VirtualMaster || channel.kind == ChannelKind::VirtualData;
    if (!virtualChannel && (fieldEnd > group.dataBytes || channel.bitCount == 0 || channel.bitCount > 64))
        return corrupt(file, channel.offset, "channel " + channel.name + " lies outside its record");
    if (channel.hasInvalidationBit() && channel.invalidBit / 8 >= group.invalidBytes)
        return corrupt(file, channel.offset, "invalidation bit outside the record");
    return {};
}

namespace {

std::uint64_t recordId(const std::uint8_t* p, std::uint8_t bytes)
{
    std::uint64_t id = 0;
    for (std::uint8_t i = 0; i < bytes; ++i) id |= std::uint64_t{p[i]} << (8 * i);
    return id;
}

// Channel `channel` from `records`, each of `idBytes` record id (skipped) then the group's data and invalidation
// bytes.
core::Result<std::vector<double>> decode(const io::ByteSource& file, const DataGroup& dg, const ChannelGroup& group,
                                         const Channel& channel, const std::vector<std::uint8_t>& records,
                                         std::uint8_t idBytes)
{
    const std::uint64_t recordBytes = idBytes + std::uint64_t{group.dataBytes} + group.invalidBytes;
    LV_TRY(checkChannelLayout(file, group, channel));
    if (recordBytes == 0 || records.size() / recordBytes < group.cycleCount)
        return corrupt(file, dg.offset,
                       "the data holds fewer records than its channel group's " + std::to_string(group.cycleCount));
    std::vector<double> values(group.cycleCount);
    for (std::uint64_t i = 0; i < group.cycleCount; ++i)
        values[i] = physicalValue(group, channel, records.data() + i * recordBytes + idBytes, i);
    return values;
}

} // namespace

core::Result<std::vector<std::uint8_t>> recordsOfGroup(const io::ByteSource& file, const DataGroup& dg,
                                                       const ChannelGroup& group,
                                                       const std::vector<std::uint8_t>& stream)
{
    std::vector<std::uint8_t> out;
    const std::uint8_t idBytes = dg.recordIdBytes;
    std::map<std::uint64_t, const ChannelGroup*> owners; // record id -> its group, looked up once per record
    for (const ChannelGroup& g : dg.groups) owners[g.recordId] = &g;
    for (std::uint64_t at = 0; at < stream.size();) {
        if (stream.size() - at < idBytes) return corrupt(file, dg.offset, "the data ends inside a record id");
        const std::uint64_t id = recordId(stream.data() + at, idBytes);
        const auto found = owners.find(id);
        const ChannelGroup* owner = found == owners.end() ? nullptr : found->second;
        if (!owner)
            return corrupt(file, dg.offset,
                           "record id " + std::to_string(id) + " at byte " + std::to_string(at) +
                               " of the data belongs to no channel group");
        std::uint64_t bytes = std::uint64_t{owner->dataBytes} + owner->invalidBytes;
        if (owner->isVlsd()) { // a u32 length, then that many bytes
            if (stream.size() - at - idBytes < 4) return corrupt(file, dg.offset, "the data ends inside a VLSD length");
            bytes = 4 + le::u32(stream, at + idBytes);
        }
        if (bytes > stream.size() - at - idBytes) return corrupt(file, dg.offset, "the data ends inside a record");
        if (owner == &group)
            out.insert(out.end(), stream.begin() + static_cast<std::ptrdiff_t>(at + idBytes),
                       stream.begin() + static_cast<std::ptrdiff_t>(at + idBytes + bytes));
        at += idBytes + bytes;
    }
    return out;
}

core::Result<std::vector<double>> channelValues(const io::ByteSource& file, const DataGroup& dg,
                                                const ChannelGroup& group, const Channel& channel,
                                                const std::vector<std::uint8_t>& records)
{
    const auto fail = [&](const std::string& what) {
        return core::makeError(core::ErrorCode::Unsupported, "MDF4: " + what, file.path(),
                               static_cast<std::int64_t>(channel.offset));
    };
    if (channel.dataType > DataType::FloatBe || channel.kind == ChannelKind::Vlsd)
        return fail("channel " + channel.name + " is not numeric");
    if (channel.hasConversion && !isNumericConversion(*channel.conversion))
        return fail("the conversion of channel " + channel.name + " is not read yet");
    if (dg.recordIdBytes == 0 || dg.groups.size() == 1)
        return decode(file, dg, group, channel, records, dg.recordIdBytes);
    auto own = recordsOfGroup(file, dg, group, records); // unsorted: this group's records, ids removed
    if (!own) return own.error();
    return decode(file, dg, group, channel, *own, 0);
}

} // namespace lv::formats::mdf4
