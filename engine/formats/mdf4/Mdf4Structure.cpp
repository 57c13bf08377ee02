// The MDF 4 block tree walked from HD: every chain guarded against loops and runaway lengths, every field
// checked against its block before it is used.
#include "formats/mdf4/Mdf4Structure.h"

#include "core/LittleEndian.h"
#include "formats/mdf4/Mdf4Block.h"

#include <set>

namespace lv::formats::mdf4 {

namespace le = core::le;
using core::ErrorCode;

namespace {

constexpr std::uint64_t kIdBytes = 64;
constexpr std::size_t kMaxChain = 10'000'000; // blocks in one list: far beyond any real file

// The DG, CG and CN blocks met so far: each belongs to one list, so a block met twice is a loop or a shared list
// (which would multiply the tree's size out of a small file).
using Claimed = std::set<std::uint64_t>;

// Follows a "next" chain from `first`, calling read(offset) for each block, refusing a block met before.
template <typename Read>
core::Status walk(const io::ByteSource& file, Claimed& claimed, std::uint64_t first, const char* what, Read&& read)
{
    for (std::uint64_t at = first; at != 0;) {
        if (!claimed.insert(at).second || claimed.size() > kMaxChain)
            return corrupt(file, at, std::string("the list of ") + what + " loops back or links a block twice");
        auto next = read(at);
        if (!next) return next.error();
        at = *next;
    }
    return {};
}

core::Status needData(const io::ByteSource& file, const Block& b, std::size_t bytes)
{
    if (b.data.size() >= bytes) return {};
    return corrupt(file, b.offset,
                   "##" + b.id + " block holds " + std::to_string(b.data.size()) + " data bytes, fewer than the " +
                       std::to_string(bytes) + " it needs");
}

core::Status needLinks(const io::ByteSource& file, const Block& b, std::size_t links)
{
    if (b.links.size() >= links) return {};
    return corrupt(file, b.offset,
                   "##" + b.id + " block has " + std::to_string(b.links.size()) + " links, fewer than " +
                       std::to_string(links));
}

core::Result<Conversion> readConversion(const io::ByteSource& file, std::uint64_t offset)
{
    auto b = readBlock(file, offset, {"CC"});
    if (!b) return b.error();
    LV_TRY(needLinks(file, *b, 4));
    LV_TRY(needData(file, *b, 24));
    Conversion c;
    c.offset = offset;
    const std::uint8_t type = le::u8(b->data, 0);
    if (type > static_cast<std::uint8_t>(ConversionKind::BitfieldToText))
        return corrupt(file, offset, "conversion type " + std::to_string(type) + " is not defined");
    c.kind = static_cast<ConversionKind>(type);
    const std::uint16_t refCount = le::u16(b->data, 4), valCount = le::u16(b->data, 6);
    if (b->links.size() < 4u + refCount)
        return corrupt(file, offset,
                       "##CC block lists " + std::to_string(refCount) + " references but has room for " +
                           std::to_string(b->links.size() - 4));
    LV_TRY(needData(file, *b, 24 + std::size_t{valCount} * 8));
    for (std::size_t i = 0; i < valCount; ++i) c.values.push_back(le::f64(b->data, 24 + i * 8));
    c.refs.assign(b->links.begin() + 4, b->links.begin() + 4 + refCount);
    auto unit = readText(file, b->link(1));
    if (!unit) return unit.error();
    c.unit = *unit;
    return c;
}

// One CN; returns the next CN's link.
core::Result<std::uint64_t> readChannel(const io::ByteSource& file, std::uint64_t offset, ChannelGroup& group)
{
    auto b = readBlock(file, offset, {"CN"});
    if (!b) return b.error();
    LV_TRY(needLinks(file, *b, 8));
    LV_TRY(needData(file, *b, 72));
    Channel c;
    c.offset = offset;
    const std::uint8_t kind = le::u8(b->data, 0), sync = le::u8(b->data, 1), type = le::u8(b->data, 2);
    if (kind > static_cast<std::uint8_t>(ChannelKind::VirtualData))
        return corrupt(file, offset, "channel type " + std::to_string(kind) + " is not defined");
    if (sync > static_cast<std::uint8_t>(SyncKind::Index))
        return corrupt(file, offset, "synchronisation type " + std::to_string(sync) + " is not defined");
    if (type > static_cast<std::uint8_t>(DataType::ComplexBe))
        return corrupt(file, offset, "data type " + std::to_string(type) + " is not defined");
    c.kind = static_cast<ChannelKind>(kind);
    c.sync = static_cast<SyncKind>(sync);
    c.dataType = static_cast<DataType>(type);
    c.bitOffset = le::u8(b->data, 3);
    c.byteOffset = le::u32(b->data, 4);
    c.bitCount = le::u32(b->data, 8);
    c.flags = le::u32(b->data, 12);
    c.invalidBit = le::u32(b->data, 16);
    c.dataLink = b->link(5);
    auto name = readRawText(file, b->link(2));
    if (!name) return name.error();
    c.name = *name;
    if (b->link(4) != 0) {
        auto conversion = readConversion(file, b->link(4));
        if (!conversion) return conversion.error();
        c.conversion = std::move(*conversion);
        c.hasConversion = true;
    }
    auto unit = readText(file, b->link(6));
    if (!unit) return unit.error();
    c.unit = !unit->empty() ? *unit : c.conversion.unit; // mdf-check's priority: the channel's, if it says one
    auto comment = readText(file, b->link(7));
    if (!comment) return comment.error();
    c.comment = *comment;
    group.channels.push_back(std::move(c));
    return b->link(0);
}

// One CG with its channels; returns the next CG's link.
core::Result<std::uint64_t> readChannelGroup(const io::ByteSource& file, Claimed& claimed, std::uint64_t offset,
                                             DataGroup& dg)
{
    auto b = readBlock(file, offset, {"CG"});
    if (!b) return b.error();
    LV_TRY(needLinks(file, *b, 6));
    LV_TRY(needData(file, *b, 32));
    ChannelGroup g;
    g.offset = offset;
    g.recordId = le::u64(b->data, 0);
    g.cycleCount = le::u64(b->data, 8);
    g.flags = le::u16(b->data, 16);
    g.dataBytes = le::u32(b->data, 24);
    g.invalidBytes = le::u32(b->data, 28);
    auto acquisition = readRawText(file, b->link(2));
    if (!acquisition) return acquisition.error();
    g.acquisitionName = *acquisition;
    auto comment = readText(file, b->link(5));
    if (!comment) return comment.error();
    g.comment = *comment;
    LV_TRY(walk(file, claimed, b->link(1), "channels", [&](std::uint64_t at) { return readChannel(file, at, g); }));
    dg.groups.push_back(std::move(g));
    return b->link(0);
}

// One DG with its channel groups; returns the next DG's link.
core::Result<std::uint64_t> readDataGroup(const io::ByteSource& file, Claimed& claimed, std::uint64_t offset,
                                          Structure& s)
{
    auto b = readBlock(file, offset, {"DG"});
    if (!b) return b.error();
    LV_TRY(needLinks(file, *b, 4));
    LV_TRY(needData(file, *b, 1));
    DataGroup dg;
    dg.offset = offset;
    dg.recordIdBytes = le::u8(b->data, 0);
    if (dg.recordIdBytes != 0 && dg.recordIdBytes != 1 && dg.recordIdBytes != 2 && dg.recordIdBytes != 4 &&
        dg.recordIdBytes != 8)
        return corrupt(file, offset, "record id size " + std::to_string(dg.recordIdBytes) + " is not 0, 1, 2, 4 or 8");
    dg.dataLink = b->link(2);
    LV_TRY(walk(file, claimed, b->link(1), "channel groups",
                [&](std::uint64_t at) { return readChannelGroup(file, claimed, at, dg); }));
    s.dataGroups.push_back(std::move(dg));
    return b->link(0);
}

core::Status readIdentification(const io::ByteSource& file, Structure& s)
{
    if (file.size() < kIdBytes)
        return core::makeError(ErrorCode::Unsupported, "not an MDF 4 file: shorter than its 64-byte identification",
                               file.path());
    std::uint8_t id[kIdBytes];
    LV_TRY(file.readAt(0, id));
    const std::string magic = le::text(id, 0, 8);
    s.unfinished = magic == "UnFinMF ";
    if (magic != "MDF     " && !s.unfinished)
        return core::makeError(ErrorCode::Unsupported, "not an MDF file: it does not start with \"MDF     \"",
                               file.path(), 0);
    const std::uint16_t version = le::u16(id, 28);
    if (version < 400 || version >= 500)
        return core::makeError(ErrorCode::Unsupported,
                               "MDF version " + std::to_string(version / 100) + "." + std::to_string(version % 100) +
                                   " is not MDF 4 (only 4.00 to 4.2x are read)",
                               file.path(), 28);
    s.version = std::to_string(version / 100) + "." + (version % 100 < 10 ? "0" : "") + std::to_string(version % 100);
    s.program = le::text(id, 16, 8);
    while (!s.program.empty() && s.program.back() == ' ') s.program.pop_back();
    s.unfinishedFlags = le::u16(id, 60);
    return {};
}

} // namespace

std::size_t Structure::channelCount() const
{
    std::size_t n = 0;
    for (const DataGroup& dg : dataGroups)
        for (const ChannelGroup& g : dg.groups) n += g.channels.size();
    return n;
}

core::Result<Structure> readStructure(const io::ByteSource& file)
{
    Structure s;
    LV_TRY(readIdentification(file, s));
    auto hd = readBlock(file, kIdBytes, {"HD"});
    if (!hd) return hd.error();
    LV_TRY(needLinks(file, *hd, 6));
    LV_TRY(needData(file, *hd, 32));
    s.startNs = le::u64(hd->data, 0);
    s.tzOffsetMin = static_cast<std::int16_t>(le::u16(hd->data, 8));
    s.dstOffsetMin = static_cast<std::int16_t>(le::u16(hd->data, 10));
    s.timeFlags = le::u8(hd->data, 12);
    s.eventLink = hd->link(4);
    auto comment = readRawText(file, hd->link(5));
    if (!comment) return comment.error();
    s.comment = *comment;
    Claimed claimed;
    LV_TRY(walk(file, claimed, hd->link(0), "data groups",
                [&](std::uint64_t at) { return readDataGroup(file, claimed, at, s); }));
    return s;
}

const char* dataTypeName(DataType type)
{
    static constexpr const char* kNames[] = {
        "uint_le",       "uint_be",      "int_le",         "int_be",         "float_le",   "float_be",
        "string_latin1", "string_utf8",  "string_utf16le", "string_utf16be", "byte_array", "mime_sample",
        "mime_stream",   "canopen_date", "canopen_time",   "complex_le",     "complex_be"};
    return kNames[static_cast<std::size_t>(type)];
}

const char* conversionName(ConversionKind kind)
{
    static constexpr const char* kNames[] = {"identity",      "linear",        "rational",     "algebraic",
                                             "table_interp",  "table",         "range_table",  "value_to_text",
                                             "range_to_text", "text_to_value", "text_to_text", "bitfield_text"};
    return kNames[static_cast<std::size_t>(kind)];
}

const char* channelKindName(ChannelKind kind)
{
    static constexpr const char* kNames[] = {"data", "vlsd",       "master",      "virtual_master",
                                             "sync", "max_length", "virtual_data"};
    return kNames[static_cast<std::size_t>(kind)];
}

} // namespace lv::formats::mdf4
