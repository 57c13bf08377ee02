// The descriptor records of a CDF file, read and checked: every offset against the file, every chain loop-guarded.
#include "formats/cdf/CdfStructure.h"

#include "formats/cdf/CdfCompression.h"
#include "formats/cdf/CdfFields.h"

#include <initializer_list>
#include <set>

namespace lv::formats::cdf {

namespace {

enum RecordType : std::int32_t {
    kCdr = 1,
    kGdr = 2,
    kRvdr = 3,
    kAdr = 4,
    kAgrEdr = 5,
    kVxr = 6,
    kVvr = 7,
    kZvdr = 8,
    kAzEdr = 9,
    kCcr = 10,
    kCpr = 11,
    kCvvr = 13,
};

constexpr int kMaxDims = 10;

core::Error corrupt(const std::string& message, const std::string& path, std::uint64_t offset)
{
    return core::makeError(core::ErrorCode::Corrupt, message, path, static_cast<std::int64_t>(offset));
}

const char* recordName(std::int32_t type)
{
    switch (type) {
    case kCdr:
        return "CDR";
    case kGdr:
        return "GDR";
    case kRvdr:
        return "rVDR";
    case kAdr:
        return "ADR";
    case kAgrEdr:
        return "AgrEDR";
    case kVxr:
        return "VXR";
    case kVvr:
        return "VVR";
    case kZvdr:
        return "zVDR";
    case kAzEdr:
        return "AzEDR";
    case kCcr:
        return "CCR";
    case kCpr:
        return "CPR";
    case kCvvr:
        return "CVVR";
    default:
        return "record";
    }
}

class Parser {
public:
    explicit Parser(const Image& image) : m_src(*image.source), m_path(image.source->path()), m_wide(image.wideOffsets)
    {}

    core::Result<Structure> run()
    {
        Structure s;
        s.path = m_path;
        std::uint64_t gdr = 0;
        LV_TRY(readCdr(s, gdr));
        LV_TRY(readGdr(s, gdr));
        for (Variable& v : s.variables) LV_TRY(readLeaves(v));
        LV_TRY(readAttributes(s));
        return s;
    }

private:
    std::size_t headerSize() const { return m_wide ? 12 : 8; }
    std::size_t o() const { return m_wide ? 8 : 4; }

    // The record at `offset`, one of `types`, as a whole (at most `limit` bytes of it).
    core::Result<std::vector<std::uint8_t>> record(std::int64_t offset, std::initializer_list<std::int32_t> types,
                                                   std::int32_t& type, std::uint64_t limit = std::uint64_t{1} << 20)
    {
        const std::uint64_t size = m_src.size();
        const char* want = recordName(*types.begin());
        if (offset < 8 || static_cast<std::uint64_t>(offset) + headerSize() > size)
            return corrupt(std::string("the offset of a ") + want + " (" + std::to_string(offset) +
                               ") lies outside the " + std::to_string(size) + "-byte file",
                           m_path, static_cast<std::uint64_t>(std::max<std::int64_t>(offset, 0)));
        const auto at = static_cast<std::uint64_t>(offset);
        std::uint8_t head[12] = {};
        LV_TRY(m_src.readAt(at, std::span<std::uint8_t>(head, headerSize())));
        CdfFields f(std::span<const std::uint8_t>(head, headerSize()), m_path, at, m_wide);
        const std::int64_t recordSize = f.offset(0);
        type = f.i32(o());
        bool known = false;
        for (std::int32_t t : types) known = known || t == type;
        if (!known)
            return corrupt(std::string("a ") + want + " was expected here, but the record is of type " +
                               std::to_string(type),
                           m_path, at);
        if (recordSize < static_cast<std::int64_t>(headerSize()) || static_cast<std::uint64_t>(recordSize) > size - at)
            return corrupt(std::string("a ") + recordName(type) + " of " + std::to_string(recordSize) +
                               " bytes, beyond the " + std::to_string(size - at) + " bytes left in the file",
                           m_path, at);
        auto bytes = m_src.read(at, std::min<std::uint64_t>(static_cast<std::uint64_t>(recordSize), limit));
        if (!bytes) return bytes.error();
        return std::move(*bytes);
    }

    core::Status readCdr(Structure& s, std::uint64_t& gdr)
    {
        std::int32_t type = 0;
        auto bytes = record(8, {kCdr}, type);
        if (!bytes) return bytes.error();
        CdfFields f(*bytes, m_path, 8, m_wide);
        gdr = static_cast<std::uint64_t>(f.offset(headerSize()));
        const std::size_t at = headerSize() + o();
        s.version = f.i32(at);
        s.release = f.i32(at + 4);
        s.encoding = f.i32(at + 8);
        const std::int32_t flags = f.i32(at + 12);
        s.increment = f.i32(at + 24);
        LV_TRY(f.status());
        if (s.version < 2 || (s.version == 2 && s.release < 5)) m_oldVdr = 128;
        s.rowMajor = (flags & 1) != 0;
        if ((flags & 2) == 0)
            return core::makeError(core::ErrorCode::Unsupported, "a multi-file CDF (one file per variable) is not read",
                                   m_path, 8);
        const auto order = byteOrderOf(s.encoding);
        if (!order)
            return core::makeError(core::ErrorCode::Unsupported,
                                   "encoding " + std::to_string(s.encoding) + " (VAX floats) is not read", m_path, 8);
        s.order = *order;
        return {};
    }

    core::Status readGdr(Structure& s, std::uint64_t gdr)
    {
        std::int32_t type = 0;
        auto bytes = record(static_cast<std::int64_t>(gdr), {kGdr}, type);
        if (!bytes) return bytes.error();
        CdfFields f(*bytes, m_path, gdr, m_wide);
        const std::size_t h = headerSize();
        const std::int64_t rHead = f.offset(h), zHead = f.offset(h + o()), adrHead = f.offset(h + 2 * o());
        const std::size_t p = h + 4 * o();
        const std::int32_t rCount = f.i32(p), attributes = f.i32(p + 4), rDimCount = f.i32(p + 12);
        const std::int32_t zCount = f.i32(p + 16);
        const std::size_t q = p + 20 + o();
        if (m_wide) s.leapSecondLastUpdated = f.i32(q + 4);
        LV_TRY(f.status());
        if (rCount < 0 || zCount < 0 || attributes < 0 || rDimCount < 0 || rDimCount > kMaxDims)
            return corrupt("a GDR with " + std::to_string(rCount) + " r variables, " + std::to_string(zCount) +
                               " z variables, " + std::to_string(attributes) + " attributes and " +
                               std::to_string(rDimCount) + " r dimensions",
                           m_path, gdr);
        for (std::int32_t d = 0; d < rDimCount; ++d) m_rDims.push_back(f.i32(q + 12 + 4 * static_cast<std::size_t>(d)));
        LV_TRY(f.status());
        m_adrHead = adrHead;
        m_attributeCount = attributes;
        LV_TRY(readVariables(s, rHead, rCount, false));
        return readVariables(s, zHead, zCount, true);
    }

    core::Status readVariables(Structure& s, std::int64_t head, std::int32_t count, bool z)
    {
        std::int64_t at = head;
        for (std::int32_t n = 0; n < count; ++n) {
            if (!m_seen.insert(at).second)
                return corrupt("the chain of VDRs loops", m_path, static_cast<std::uint64_t>(at));
            Variable v;
            std::int64_t next = 0;
            LV_TRY(readVdr(at, z, v, next));
            s.variables.push_back(std::move(v));
            at = next;
        }
        return {};
    }

    core::Status readVdr(std::int64_t offset, bool z, Variable& v, std::int64_t& next);
    core::Status readLeaves(Variable& v);
    core::Status readVxr(Variable& v, std::int64_t offset, int depth);
    core::Status addLeaf(Variable& v, std::int32_t first, std::int32_t last, std::int64_t offset, int depth);
    core::Status readCompression(Variable& v, std::int64_t cpr);
    core::Status readAttributes(Structure& s);
    core::Status readEntries(Attribute& a, std::int64_t head, std::int32_t count, bool z);

    const io::ByteSource& m_src;
    std::string m_path;
    bool m_wide = true;
    std::vector<std::int32_t> m_rDims;
    std::int64_t m_adrHead = 0;
    std::int32_t m_attributeCount = 0;
    std::size_t m_oldVdr = 0;      // reserved bytes in the VDRs of CDF 2.4 and older
    std::set<std::int64_t> m_seen; // records met in chains and trees: a second visit is a loop
};

core::Status Parser::readVdr(std::int64_t offset, bool z, Variable& v, std::int64_t& next)
{
    std::int32_t type = 0;
    auto bytes = record(offset, {z ? kZvdr : kRvdr}, type);
    if (!bytes) return bytes.error();
    const auto at = static_cast<std::uint64_t>(offset);
    CdfFields f(*bytes, m_path, at, m_wide);
    const std::size_t h = headerSize();
    next = f.offset(h);
    std::size_t p = h + o();
    v.offset = at;
    v.z = z;
    v.type = f.i32(p);
    v.maxRec = f.i32(p + 4);
    p += 8 + 2 * o(); // VXRhead, VXRtail: the tree is walked from the head in readLeaves
    const std::int32_t flags = f.i32(p);
    v.sparse = f.i32(p + 4);
    p += m_oldVdr; // CDF 2.4 and older: 128 reserved bytes after rfuF
    v.numElems = f.i32(p + 20);
    v.number = f.i32(p + 24);
    const std::int64_t cpr = f.offset(p + 28);
    p += 28 + o() + 4;
    const std::size_t nameSize = m_wide ? 256 : 64;
    v.name = f.text(p, nameSize);
    p += nameSize;
    std::int32_t dimCount = static_cast<std::int32_t>(m_rDims.size());
    if (z) {
        dimCount = f.i32(p);
        p += 4;
    }
    LV_TRY(f.status());
    const std::string what = std::string(z ? "zVDR" : "rVDR") + " of " + (v.name.empty() ? "a variable" : v.name);
    if (typeSize(v.type) == 0) return corrupt(what + " has data type " + std::to_string(v.type), m_path, at);
    if (v.numElems < 1 || (!isText(v.type) && v.numElems > 1 << 20) || v.numElems > 1 << 24)
        return corrupt(what + " has " + std::to_string(v.numElems) + " elements per value", m_path, at);
    if (v.maxRec < -1) return corrupt(what + " has a last record of " + std::to_string(v.maxRec), m_path, at);
    if (dimCount < 0 || dimCount > kMaxDims)
        return corrupt(what + " has " + std::to_string(dimCount) + " dimensions", m_path, at);
    for (std::int32_t d = 0; d < dimCount; ++d)
        v.dims.push_back(z ? f.i32(p + 4 * static_cast<std::size_t>(d)) : m_rDims[static_cast<std::size_t>(d)]);
    if (z) p += 4 * static_cast<std::size_t>(dimCount);
    for (std::int32_t d = 0; d < dimCount; ++d) v.dimVarys.push_back(f.i32(p + 4 * static_cast<std::size_t>(d)) != 0);
    p += 4 * static_cast<std::size_t>(dimCount);
    LV_TRY(f.status());
    std::uint64_t values = 1;
    for (std::size_t d = 0; d < v.dims.size(); ++d) {
        if (v.dims[d] < 1) return corrupt(what + " has a dimension of size " + std::to_string(v.dims[d]), m_path, at);
        if (v.dimVarys[d]) values *= static_cast<std::uint64_t>(v.dims[d]);
        if (values * v.valueBytes() > (std::uint64_t{64} << 20))
            return core::makeError(core::ErrorCode::Unsupported, what + " has records of more than 64 MiB", m_path,
                                   static_cast<std::int64_t>(at));
    }
    v.recordVaries = (flags & 1) != 0;
    if ((flags & 2) != 0) {
        const auto pad = f.bytes(p, v.valueBytes());
        LV_TRY(f.status());
        v.pad.assign(pad.begin(), pad.end());
    }
    if ((flags & 4) != 0) LV_TRY(readCompression(v, cpr));
    return {};
}

core::Status Parser::readCompression(Variable& v, std::int64_t cpr)
{
    std::int32_t type = 0;
    auto bytes = record(cpr, {kCpr}, type);
    if (!bytes) return bytes.error();
    CdfFields f(*bytes, m_path, static_cast<std::uint64_t>(cpr), m_wide);
    v.compression = f.i32(headerSize());
    const std::int32_t parameters = f.i32(headerSize() + 8);
    if (parameters > 0) v.compressionLevel = f.i32(headerSize() + 12);
    return f.status();
}

core::Status Parser::readLeaves(Variable& v)
{
    std::int32_t type = 0;
    auto bytes = record(static_cast<std::int64_t>(v.offset), {v.z ? kZvdr : kRvdr}, type);
    if (!bytes) return bytes.error();
    CdfFields f(*bytes, m_path, v.offset, m_wide);
    const std::int64_t head = f.offset(headerSize() + o() + 8);
    LV_TRY(f.status());
    if (head != 0) LV_TRY(readVxr(v, head, 0));
    for (std::size_t i = 1; i < v.leaves.size(); ++i)
        if (v.leaves[i].first <= v.leaves[i - 1].last)
            return corrupt("variable " + v.name + ": records " + std::to_string(v.leaves[i].first) + " to " +
                               std::to_string(v.leaves[i].last) + " overlap or precede records stored before them",
                           m_path, v.leaves[i].offset);
    return {};
}

core::Status Parser::readVxr(Variable& v, std::int64_t offset, int depth)
{
    for (std::int64_t at = offset; at != 0;) {
        if (!m_seen.insert(at).second)
            return corrupt("the VXRs of " + v.name + " loop", m_path, static_cast<std::uint64_t>(at));
        std::int32_t type = 0;
        auto bytes = record(at, {kVxr}, type, std::uint64_t{64} << 20);
        if (!bytes) return bytes.error();
        CdfFields f(*bytes, m_path, static_cast<std::uint64_t>(at), m_wide);
        const std::size_t h = headerSize();
        const std::int64_t next = f.offset(h);
        const std::int32_t entries = f.i32(h + o()), used = f.i32(h + o() + 4);
        LV_TRY(f.status());
        if (entries < 0 || used < 0 || used > entries ||
            static_cast<std::uint64_t>(entries) * (8 + o()) > bytes->size())
            return corrupt("a VXR of " + v.name + " with " + std::to_string(used) + " of " + std::to_string(entries) +
                               " entries in " + std::to_string(bytes->size()) + " bytes",
                           m_path, static_cast<std::uint64_t>(at));
        const std::size_t firsts = h + o() + 8, lasts = firsts + 4 * static_cast<std::size_t>(entries);
        const std::size_t offsets = lasts + 4 * static_cast<std::size_t>(entries);
        for (std::int32_t e = 0; e < used; ++e) {
            const auto i = static_cast<std::size_t>(e);
            LV_TRY(addLeaf(v, f.i32(firsts + 4 * i), f.i32(lasts + 4 * i), f.offset(offsets + o() * i), depth));
        }
        LV_TRY(f.status());
        at = next;
    }
    return {};
}

core::Status Parser::addLeaf(Variable& v, std::int32_t first, std::int32_t last, std::int64_t offset, int depth)
{
    if (first < 0 || last < first)
        return corrupt("a VXR entry of " + v.name + " for records " + std::to_string(first) + " to " +
                           std::to_string(last),
                       m_path, static_cast<std::uint64_t>(std::max<std::int64_t>(offset, 0)));
    std::int32_t type = 0;
    auto bytes = record(offset, {kVvr, kCvvr, kVxr}, type, headerSize() + 4 + o());
    if (!bytes) return bytes.error();
    if (type == kVxr) {
        if (depth >= 16)
            return corrupt("the VXR tree of " + v.name + " is more than 16 deep", m_path,
                           static_cast<std::uint64_t>(offset));
        return readVxr(v, offset, depth + 1);
    }
    CdfFields f(*bytes, m_path, static_cast<std::uint64_t>(offset), m_wide);
    const std::uint64_t recordSize = static_cast<std::uint64_t>(f.offset(0));
    Leaf leaf{first, last, static_cast<std::uint64_t>(offset), 0, 0, type == kCvvr};
    const std::uint64_t records = static_cast<std::uint64_t>(last - first) + 1;
    if (leaf.compressed) {
        leaf.dataAt = leaf.offset + headerSize() + 4 + o();
        const std::int64_t stored = f.offset(headerSize() + 4);
        LV_TRY(f.status());
        if (stored < 0 ||
            static_cast<std::uint64_t>(stored) > recordSize - std::min(recordSize, headerSize() + 4 + o()))
            return corrupt("a CVVR of " + v.name + " that holds " + std::to_string(stored) + " bytes in a record of " +
                               std::to_string(recordSize),
                           m_path, leaf.offset);
        leaf.dataSize = static_cast<std::uint64_t>(stored);
        if (v.compression == kNoCompression)
            return corrupt("a CVVR of " + v.name + ", a variable without compression", m_path, leaf.offset);
        if (records * v.recordBytes() > maxInflatedSize(v.compression, leaf.dataSize))
            return corrupt("a CVVR of " + v.name + " whose " + std::to_string(leaf.dataSize) + " bytes cannot hold " +
                               std::to_string(records) + " records",
                           m_path, leaf.offset);
    } else {
        leaf.dataAt = leaf.offset + headerSize();
        leaf.dataSize = recordSize - headerSize();
        if (records * v.recordBytes() > leaf.dataSize)
            return corrupt("a VVR of " + v.name + " with " + std::to_string(leaf.dataSize) + " bytes for " +
                               std::to_string(records) + " records of " + std::to_string(v.recordBytes()) + " bytes",
                           m_path, leaf.offset);
    }
    v.leaves.push_back(leaf);
    return {};
}

core::Status Parser::readAttributes(Structure& s)
{
    std::int64_t at = m_adrHead;
    for (std::int32_t n = 0; n < m_attributeCount; ++n) {
        if (!m_seen.insert(at).second)
            return corrupt("the chain of ADRs loops", m_path, static_cast<std::uint64_t>(at));
        std::int32_t type = 0;
        auto bytes = record(at, {kAdr}, type);
        if (!bytes) return bytes.error();
        CdfFields f(*bytes, m_path, static_cast<std::uint64_t>(at), m_wide);
        const std::size_t h = headerSize();
        const std::int64_t next = f.offset(h), grHead = f.offset(h + o());
        const std::size_t p = h + 2 * o();
        const std::int32_t scope = f.i32(p), grCount = f.i32(p + 8);
        const std::int64_t zHead = f.offset(p + 20);
        const std::int32_t zCount = f.i32(p + 20 + o());
        Attribute a;
        a.name = f.text(p + 32 + o(), m_wide ? 256 : 64);
        LV_TRY(f.status());
        a.global = scope == 1 || scope == 3;
        LV_TRY(readEntries(a, grHead, grCount, false));
        LV_TRY(readEntries(a, zHead, zCount, true));
        s.attributes.push_back(std::move(a));
        at = next;
    }
    return {};
}

core::Status Parser::readEntries(Attribute& a, std::int64_t head, std::int32_t count, bool z)
{
    std::int64_t at = head;
    for (std::int32_t n = 0; n < count; ++n) {
        if (!m_seen.insert(at).second)
            return corrupt("the entries of attribute " + a.name + " loop", m_path, static_cast<std::uint64_t>(at));
        std::int32_t type = 0;
        auto bytes = record(at, {z ? kAzEdr : kAgrEdr}, type, std::uint64_t{64} << 20);
        if (!bytes) return bytes.error();
        CdfFields f(*bytes, m_path, static_cast<std::uint64_t>(at), m_wide);
        const std::size_t h = headerSize();
        const std::int64_t next = f.offset(h);
        Entry e;
        e.z = z;
        e.type = f.i32(h + o() + 4);
        e.number = f.i32(h + o() + 8);
        e.numElems = f.i32(h + o() + 12);
        LV_TRY(f.status());
        if (typeSize(e.type) == 0 || e.numElems < 0)
            return corrupt("an entry of attribute " + a.name + " of type " + std::to_string(e.type) + " with " +
                               std::to_string(e.numElems) + " elements",
                           m_path, static_cast<std::uint64_t>(at));
        const auto value = f.bytes(h + o() + 36, typeSize(e.type) * static_cast<std::size_t>(e.numElems));
        LV_TRY(f.status());
        e.value.assign(value.begin(), value.end());
        a.entries.push_back(std::move(e));
        at = next;
    }
    return {};
}

} // namespace

core::Result<Structure> readStructure(const Image& image)
{
    auto s = Parser(image).run();
    if (s) s->compression = image.compression;
    return s;
}

std::size_t Variable::valuesPerRecord() const
{
    std::size_t n = 1;
    for (std::size_t d = 0; d < dims.size(); ++d)
        if (dimVarys[d]) n *= static_cast<std::size_t>(dims[d]);
    return n;
}

const Attribute* Structure::attribute(std::string_view name) const
{
    for (const Attribute& a : attributes)
        if (a.name == name) return &a;
    return nullptr;
}

const Entry* Structure::entryOf(const Attribute& attribute, const Variable& v) const
{
    for (const Entry& e : attribute.entries)
        if (e.z == v.z && e.number == v.number) return &e;
    return nullptr;
}

const Variable* Structure::variable(std::string_view name) const
{
    for (const Variable& v : variables)
        if (v.name == name) return &v;
    return nullptr;
}

} // namespace lv::formats::cdf
