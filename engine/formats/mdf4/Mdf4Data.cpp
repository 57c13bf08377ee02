// Data blocks gathered into one record stream (libdeflate for DZ, transposed DZ put back row by row) and numeric
// channels decoded from it.
#include "formats/mdf4/Mdf4Data.h"

#include "core/LittleEndian.h"
#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4Conversion.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <libdeflate.h>
#include <limits>
#include <map>
#include <memory>
#include <set>

namespace lv::formats::mdf4 {

namespace le = core::le;

namespace {

struct Gather {
    const io::ByteSource& file;
    std::uint64_t maxBytes;
    std::vector<std::uint8_t> out;
    std::set<std::uint64_t> seen;
};

core::Status tooLarge(const Gather& g, std::uint64_t at)
{
    return core::makeError(core::ErrorCode::Unsupported,
                           "MDF4: the data group holds more than " + std::to_string(g.maxBytes) + " bytes",
                           g.file.path(), static_cast<std::int64_t>(at));
}

// Rows of `columns` bytes stored column by column (the first rows * columns bytes), back to row order.
void untranspose(std::vector<std::uint8_t>& bytes, std::uint64_t columns)
{
    if (columns <= 1) return;
    const std::uint64_t rows = bytes.size() / columns;
    std::vector<std::uint8_t> rowOrder(bytes.size());
    for (std::uint64_t c = 0; c < columns; ++c)
        for (std::uint64_t r = 0; r < rows; ++r) rowOrder[r * columns + c] = bytes[c * rows + r];
    std::memcpy(rowOrder.data() + rows * columns, bytes.data() + rows * columns, bytes.size() - rows * columns);
    bytes.swap(rowOrder);
}

core::Status appendDt(Gather& g, const Block& b)
{
    const std::uint64_t bytes = b.length - kHeaderBytes - b.links.size() * 8;
    if (bytes > g.maxBytes - g.out.size()) return tooLarge(g, b.offset);
    const std::size_t at = g.out.size();
    g.out.resize(at + bytes);
    return g.file.readAt(b.offset + kHeaderBytes + b.links.size() * 8, {g.out.data() + at, bytes});
}

core::Status appendDz(Gather& g, const Block& b)
{
    if (b.data.size() < 24) return corrupt(g.file, b.offset, "##DZ block is shorter than its header");
    const std::string original(reinterpret_cast<const char*>(b.data.data()), 2);
    const std::uint8_t zipType = le::u8(b.data, 2);
    const std::uint32_t parameter = le::u32(b.data, 4);
    const std::uint64_t originalBytes = le::u64(b.data, 8), zipped = le::u64(b.data, 16);
    if (original != "DT" && original != "SD" && original != "RD")
        return corrupt(g.file, b.offset, "##DZ holds a \"" + original + "\" block, not DT, SD or RD");
    if (zipType > 1)
        return corrupt(g.file, b.offset, "##DZ compression " + std::to_string(zipType) + " is not deflate");
    if (zipped != b.data.size() - 24) return corrupt(g.file, b.offset, "##DZ data length does not match its block");
    if (originalBytes / 1032 > zipped + 1) // deflate expands 1032:1 at most: an absurd size, not a big one
        return corrupt(g.file, b.offset,
                       "##DZ cannot inflate " + std::to_string(zipped) + " bytes to " + std::to_string(originalBytes));
    if (originalBytes > g.maxBytes - g.out.size()) return tooLarge(g, b.offset);
    std::vector<std::uint8_t> inflated(originalBytes);
    std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)> d(libdeflate_alloc_decompressor(),
                                                                                        &libdeflate_free_decompressor);
    std::size_t got = 0;
    if (!d ||
        libdeflate_zlib_decompress(d.get(), b.data.data() + 24, zipped, inflated.data(), originalBytes, &got) !=
            LIBDEFLATE_SUCCESS ||
        got != originalBytes)
        return corrupt(g.file, b.offset,
                       "##DZ data does not inflate to its " + std::to_string(originalBytes) + " bytes");
    if (zipType == 1) untranspose(inflated, parameter);
    g.out.insert(g.out.end(), inflated.begin(), inflated.end());
    return {};
}

core::Status gather(Gather& g, std::uint64_t at, int depth);

core::Status gatherList(Gather& g, const Block& dl, int depth)
{
    for (std::uint64_t list = dl.offset; list != 0;) {
        auto b = list == dl.offset ? core::Result<Block>(dl) : readBlock(g.file, list, {"DL"});
        if (!b) return b.error();
        if (b->data.size() < 8) return corrupt(g.file, list, "##DL block is shorter than its header");
        const std::uint32_t count = le::u32(b->data, 4);
        if (b->links.size() < 1u + count)
            return corrupt(g.file, list, "##DL lists " + std::to_string(count) + " blocks but has room for fewer");
        for (std::uint32_t i = 0; i < count; ++i) LV_TRY(gather(g, b->links[1 + i], depth + 1));
        list = b->link(0);
        if (list != 0 && !g.seen.insert(list).second) return corrupt(g.file, list, "the data list loops back");
    }
    return {};
}

core::Status gather(Gather& g, std::uint64_t at, int depth)
{
    if (at == 0) return {};
    if (depth > 8) return corrupt(g.file, at, "data lists nest more than 8 deep");
    if (!g.seen.insert(at).second) return corrupt(g.file, at, "a data block is linked twice");
    auto b = readBlock(g.file, at, {"DT", "DZ", "DL", "HL"}, 64);
    if (!b) return b.error();
    if (b->id == "DT") return appendDt(g, *b);
    if (b->id == "DZ") {
        auto whole = readBlock(g.file, at, {"DZ"}, g.maxBytes);
        if (!whole) return whole.error();
        return appendDz(g, *whole);
    }
    if (b->id == "HL") return gather(g, b->link(0), depth + 1);
    return gatherList(g, *b, depth);
}

} // namespace

core::Result<std::vector<std::uint8_t>> readDataGroupBytes(const io::ByteSource& file, const DataGroup& dg,
                                                           std::uint64_t maxBytes)
{
    Gather g{file, maxBytes, {}, {}};
    LV_TRY(gather(g, dg.dataLink, 0));
    return std::move(g.out);
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
    const std::uint64_t fieldEnd = channel.byteOffset + (std::uint64_t{channel.bitOffset} + channel.bitCount + 7) / 8;
    const bool virtualChannel = channel.kind == ChannelKind::VirtualMaster || channel.kind == ChannelKind::VirtualData;
    if (!virtualChannel && (fieldEnd > group.dataBytes || channel.bitCount == 0 || channel.bitCount > 64))
        return corrupt(file, channel.offset, "channel " + channel.name + " lies outside its record");
    if (recordBytes == 0 || records.size() / recordBytes < group.cycleCount)
        return corrupt(file, dg.offset,
                       "the data holds fewer records than its channel group's " + std::to_string(group.cycleCount));
    if (channel.hasInvalidationBit() && channel.invalidBit / 8 >= group.invalidBytes)
        return corrupt(file, channel.offset, "invalidation bit outside the record");
    std::vector<double> values(group.cycleCount);
    for (std::uint64_t i = 0; i < group.cycleCount; ++i) {
        const std::uint8_t* record = records.data() + i * recordBytes + idBytes;
        const double raw = virtualChannel ? static_cast<double>(i) : rawValue(channel, record);
        double v = channel.hasConversion ? convert(channel.conversion, raw) : raw;
        if (channel.allInvalid()) v = std::nan("");
        const std::uint64_t bit = channel.invalidBit;
        if (channel.hasInvalidationBit() && (record[group.dataBytes + bit / 8] >> (bit % 8)) & 1u) v = std::nan("");
        values[i] = v;
    }
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
    if (channel.hasConversion && !isNumericConversion(channel.conversion))
        return fail("the conversion of channel " + channel.name + " is not read yet");
    if (dg.recordIdBytes == 0 || dg.groups.size() == 1)
        return decode(file, dg, group, channel, records, dg.recordIdBytes);
    auto own = recordsOfGroup(file, dg, group, records); // unsorted: this group's records, ids removed
    if (!own) return own.error();
    return decode(file, dg, group, channel, *own, 0);
}

} // namespace lv::formats::mdf4
