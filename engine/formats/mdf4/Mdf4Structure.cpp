// The MDF 4 block tree walked from HD: every chain guarded against loops and runaway lengths, every field
// checked against its block before it is used; sources, reductions and arrays listed on the way.
#include "formats/mdf4/Mdf4Structure.h"

#include "core/LittleEndian.h"
#include "core/TaskRunner.h"
#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4BlockClaims.h"
#include "formats/mdf4/Mdf4Conversion.h"
#include "io/WindowedSource.h"

#include <array>
#include <map>
#include <set>

namespace lv::formats::mdf4 {

namespace le = core::le;
using core::ErrorCode;

namespace {

constexpr std::uint64_t kIdBytes = 64;
constexpr std::size_t kMaxChain = 10'000'000;              // blocks in one list: far beyond any real file
constexpr std::uint64_t kWindow = std::uint64_t{64} << 10; // the tree read through windows of this size

using Sources = std::map<std::uint64_t, Source>;

// What one thread reads the tree with: the file through windows of its own, the claims shared by every thread, and
// its own caches of the sources and conversions it has read.
struct Reader {
    const io::ByteSource& file;
    BlockClaims& claimed;
    Sources sources;
    std::map<std::pair<std::uint64_t, bool>, std::shared_ptr<const Conversion>> conversions; // by offset, raw type
};

// Follows a "next" chain from `first`, calling read(offset) for each block, refusing a block met before.
template <typename Read>
core::Status walk(const io::ByteSource& file, BlockClaims& claimed, std::uint64_t first, const char* what, Read&& read)
{
    std::size_t length = 0;
    for (std::uint64_t at = first; at != 0;) {
        if (!claimed.claim(at) || ++length > kMaxChain)
            return corrupt(file, at, std::string("the list of ") + what + " loops back or links a block twice");
        auto next = read(at);
        if (!next) return next.error();
        at = *next;
    }
    return {};
}

bool floatRaw(const Channel& c)
{
    const bool virtualChannel = c.kind == ChannelKind::VirtualMaster || c.kind == ChannelKind::VirtualData;
    return !virtualChannel && (c.dataType == DataType::FloatLe || c.dataType == DataType::FloatBe);
}

// The SI block at `offset` (read once per file: channels often share one).
core::Result<Source> readSource(const io::ByteSource& file, Sources& sources, std::uint64_t offset)
{
    if (offset == 0) return Source{};
    if (const auto found = sources.find(offset); found != sources.end()) return found->second;
    auto b = readBlock(file, offset, {"SI"});
    if (!b) return b.error();
    LV_TRY(needLinks(file, *b, 3));
    LV_TRY(needData(file, *b, 3));
    Source s;
    s.present = true;
    s.offset = offset;
    s.type = le::u8(b->data, 0);
    s.busType = le::u8(b->data, 1);
    auto name = readRawText(file, b->link(0));
    if (!name) return name.error();
    auto path = readRawText(file, b->link(1));
    if (!path) return path.error();
    auto comment = readText(file, b->link(2));
    if (!comment) return comment.error();
    s.name = std::move(*name);
    s.path = std::move(*path);
    s.comment = std::move(*comment);
    sources.emplace(offset, s);
    return s;
}

// cn_composition: a CA block (and the CA blocks nested in it) listed, or a structure's first CN named.
core::Status readComposition(const io::ByteSource& file, std::uint64_t offset, Channel& c)
{
    std::set<std::uint64_t> seen;
    for (std::uint64_t at = offset; at != 0;) {
        if (!seen.insert(at).second || seen.size() > 64)
            return corrupt(file, at, "the channel arrays of channel " + c.name + " loop back or nest too deep");
        auto b = readBlock(file, at, {"CA", "CN"}, 4096);
        if (!b) return b.error();
        if (c.composition.empty()) c.composition = b->id;
        if (b->id == "CN") return {}; // a structure: its members are not read
        LV_TRY(needLinks(file, *b, 1));
        LV_TRY(needData(file, *b, 16));
        ArrayInfo a;
        a.offset = at;
        a.type = le::u8(b->data, 0);
        a.storage = le::u8(b->data, 1);
        const std::uint16_t dims = le::u16(b->data, 2);
        LV_TRY(needData(file, *b, 16 + std::size_t{dims} * 8));
        for (std::size_t i = 0; i < dims; ++i) a.dimensions.push_back(le::u64(b->data, 16 + i * 8));
        c.arrays.push_back(std::move(a));
        at = b->link(0); // a nested array (CA), a structure (CN) or nothing
    }
    return {};
}

// One CN; returns the next CN's link.
core::Result<std::uint64_t> readChannel(Reader& r, std::uint64_t offset, ChannelGroup& group)
{
    const io::ByteSource& file = r.file;
    auto b = readBlock(file, offset, {"CN"});
    if (!b) return b.error();
    LV_TRY(needLinks(file, *b, 8));
    LV_TRY(needData(file, *b, 72));
    Channel& c = group.channels.emplace_back(); // filled in place (a failure fails the whole tree)
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
    c.name = std::move(*name);
    if (b->link(1) != 0) LV_TRY(readComposition(file, b->link(1), c));
    auto source = readSource(file, r.sources, b->link(3));
    if (!source) return source.error();
    c.source = std::move(*source);
    if (b->link(4) != 0) {
        const auto key = std::make_pair(b->link(4), floatRaw(c)); // channels often share a conversion
        auto cached = r.conversions.find(key);
        if (cached == r.conversions.end()) {
            auto conversion = readConversion(file, b->link(4), floatRaw(c));
            if (!conversion) return conversion.error();
            cached = r.conversions.emplace(key, std::make_shared<const Conversion>(std::move(*conversion))).first;
        }
        c.conversion = cached->second;
        c.hasConversion = true;
    }
    auto unit = readText(file, b->link(6));
    if (!unit) return unit.error();
    if (!unit->empty()) // mdf-check's priority: the channel's unit if it says one, else its conversion's
        c.unit = std::move(*unit);
    else if (c.hasConversion)
        c.unit = c.conversion->unit;
    auto comment = readText(file, b->link(7));
    if (!comment) return comment.error();
    c.comment = std::move(*comment);
    return b->link(0);
}

// How many CN blocks the chain from `first` holds, reading only their headers and next links, so that a group's
// channels are read into place without growing their vector; 0 when the chain is not plainly well formed (the walk
// that reads it then says why).
std::size_t countChannels(const io::ByteSource& file, std::uint64_t first)
{
    constexpr std::uint64_t kMinChannelBytes = kHeaderBytes + std::uint64_t{8} * 8 + 72; // 8 links, 72 data bytes
    const std::uint64_t most = file.size() / kMinChannelBytes;
    std::size_t count = 0;
    std::array<std::uint8_t, kHeaderBytes + 8> head{};
    for (std::uint64_t at = first; at != 0; ++count) {
        if (count > most || at > file.size() || file.size() - at < head.size() || !file.readAt(at, head)) return 0;
        if (head[0] != '#' || head[1] != '#' || head[2] != 'C' || head[3] != 'N' || le::u64(head, 16) < 1) return 0;
        at = le::u64(head, kHeaderBytes);
    }
    return count;
}

// One CG with its channels; returns the next CG's link.
core::Result<std::uint64_t> readChannelGroup(Reader& r, std::uint64_t offset, DataGroup& dg)
{
    const io::ByteSource& file = r.file;
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
    auto source = readSource(file, r.sources, b->link(3));
    if (!source) return source.error();
    g.source = std::move(*source);
    LV_TRY(walk(file, r.claimed, b->link(4), "sample reductions", [&](std::uint64_t at) -> core::Result<std::uint64_t> {
        auto sr = readBlock(file, at, {"SR"});
        if (!sr) return sr.error();
        LV_TRY(needLinks(file, *sr, 2));
        LV_TRY(needData(file, *sr, 18));
        g.reductions.push_back(
            {le::u64(sr->data, 0), le::f64(sr->data, 8), le::u8(sr->data, 16), le::u8(sr->data, 17), sr->link(1), at});
        return sr->link(0);
    }));
    g.channels.reserve(countChannels(file, b->link(1)));
    LV_TRY(walk(file, r.claimed, b->link(1), "channels", [&](std::uint64_t at) { return readChannel(r, at, g); }));
    dg.groups.push_back(std::move(g));
    return b->link(0);
}

// One DG block, its channel groups not yet read (`groupsLink`); returns the next DG's link.
core::Result<std::uint64_t> readDataGroup(const io::ByteSource& file, std::uint64_t offset, Structure& s,
                                          std::vector<std::uint64_t>& groupsLink)
{
    auto b = readBlock(file, offset, {"DG"});
    if (!b) return b.error();
    LV_TRY(needLinks(file, *b, 4));
    LV_TRY(needData(file, *b, 1));
    DataGroup& dg = s.dataGroups.emplace_back();
    dg.offset = offset;
    dg.recordIdBytes = le::u8(b->data, 0);
    if (dg.recordIdBytes != 0 && dg.recordIdBytes != 1 && dg.recordIdBytes != 2 && dg.recordIdBytes != 4 &&
        dg.recordIdBytes != 8)
        return corrupt(file, offset, "record id size " + std::to_string(dg.recordIdBytes) + " is not 0, 1, 2, 4 or 8");
    dg.dataLink = b->link(2);
    groupsLink.push_back(b->link(1));
    return b->link(0);
}

// The channel groups of data groups [first, last), in order, through windows of this reader's own, up to the
// first error.
core::Status readGroupsOf(const io::ByteSourcePtr& file, BlockClaims& claimed, Structure& s,
                          const std::vector<std::uint64_t>& groupsLink, std::size_t first, std::size_t last)
{
    const io::ByteSourcePtr windows = io::windowedSource(file, kWindow, 8);
    Reader r{*windows, claimed, {}, {}};
    for (std::size_t d = first; d < last; ++d) {
        DataGroup& dg = s.dataGroups[d];
        LV_TRY(walk(*windows, claimed, groupsLink[d], "channel groups",
                    [&](std::uint64_t at) { return readChannelGroup(r, at, dg); }));
    }
    return {};
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

std::string Source::label() const
{
    if (!name.empty() && !path.empty() && name != path) return name + " (" + path + ")";
    return !name.empty() ? name : path;
}

std::size_t Structure::channelCount() const
{
    std::size_t n = 0;
    for (const DataGroup& dg : dataGroups)
        for (const ChannelGroup& g : dg.groups) n += g.channels.size();
    return n;
}

core::Result<Structure> readStructure(const io::ByteSource& file, core::TaskRunner* runner)
{
    const io::ByteSourcePtr source(std::shared_ptr<const void>(), &file); // not owned: `file` outlives the read
    const io::ByteSourcePtr windows = io::windowedSource(source, kWindow, 8);
    Structure s;
    LV_TRY(readIdentification(*windows, s));
    auto hd = readBlock(*windows, kIdBytes, {"HD"});
    if (!hd) return hd.error();
    LV_TRY(needLinks(*windows, *hd, 6));
    LV_TRY(needData(*windows, *hd, 32));
    s.startNs = le::u64(hd->data, 0);
    s.tzOffsetMin = static_cast<std::int16_t>(le::u16(hd->data, 8));
    s.dstOffsetMin = static_cast<std::int16_t>(le::u16(hd->data, 10));
    s.timeFlags = le::u8(hd->data, 12);
    s.eventLink = hd->link(4);
    auto comment = readRawText(*windows, hd->link(5));
    if (!comment) return comment.error();
    s.comment = *comment;
    BlockClaims claimed(file.size());
    std::vector<std::uint64_t> groupsLink;
    LV_TRY(walk(*windows, claimed, hd->link(0), "data groups",
                [&](std::uint64_t at) { return readDataGroup(*windows, at, s, groupsLink); }));
    // The data groups' subtrees side by side, in runs of neighbouring groups (their blocks lie near each other).
    const std::size_t groups = s.dataGroups.size();
    const std::size_t runs = std::min(groups, runner ? 4 * runner->threadCount() : 1);
    std::vector<core::Status> results(runs);
    core::runEach(runner, runs, [&](std::size_t k) {
        results[k] = readGroupsOf(source, claimed, s, groupsLink, groups * k / runs, groups * (k + 1) / runs);
    });
    for (const core::Status& status : results) // the first data group's error, as a reading in order finds it
        if (!status.ok()) return status.error();
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
