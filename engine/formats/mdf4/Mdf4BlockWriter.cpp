// Block layouts of MDF 4.10 written field by field (little endian), the same offsets Mdf4Structure reads.
#include "formats/mdf4/Mdf4BlockWriter.h"

#include "core/LittleEndian.h"

#include <algorithm>
#include <cstring>

namespace lv::formats::mdf4 {

namespace le = core::le;

namespace {

// A block of `length` bytes (the length field says `declared`, which differs only for DZ), `links` links; data
// fields are set by offset from the start of the data section.
class Builder {
public:
    Builder(std::string_view id, std::size_t links, std::uint64_t length, std::uint64_t declared = 0)
        : m_links(links)
        , m_bytes(static_cast<std::size_t>(length), 0)
    {
        m_bytes[0] = '#';
        m_bytes[1] = '#';
        m_bytes[2] = static_cast<std::uint8_t>(id[0]);
        m_bytes[3] = static_cast<std::uint8_t>(id[1]);
        le::store<std::uint64_t>(&m_bytes[8], declared != 0 ? declared : length);
        le::store<std::uint64_t>(&m_bytes[16], links);
    }
    Builder& link(std::size_t i, std::uint64_t offset)
    {
        le::store(&m_bytes[24 + i * 8], offset);
        return *this;
    }
    template <typename T>
    Builder& field(std::size_t at, T value)
    {
        le::store(&m_bytes[data() + at], value);
        return *this;
    }
    Builder& text(std::size_t at, std::string_view s)
    {
        std::memcpy(&m_bytes[data() + at], s.data(), s.size());
        return *this;
    }
    Bytes take() { return std::move(m_bytes); }

private:
    std::size_t data() const { return 24 + m_links * 8; }
    std::size_t m_links;
    Bytes m_bytes;
};

Bytes textLike(std::string_view id, std::string_view text)
{
    return Builder(id, 0, textBlockBytes(text)).text(0, text).take();
}

} // namespace

std::uint64_t textBlockBytes(std::string_view text) { return aligned8(24 + text.size() + 1); }

std::uint64_t eventBlockBytes(std::size_t scopes) { return 24 + (5 + scopes) * 8 + 32; }

std::uint64_t dataListBytes(std::size_t count) { return 24 + (1 + count) * 8 + 8 + count * 8; }

std::string xmlEscape(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r') out += c; // XML 1.0
        }
    }
    return out;
}

std::string commentXml(std::string_view tag, std::string_view text)
{
    return "<" + std::string(tag) + "><TX>" + xmlEscape(text) + "</TX></" + std::string(tag) + ">";
}

Bytes identificationBlock(std::string_view program)
{
    Bytes b(kIdentificationBytes, 0);
    std::memcpy(&b[0], "MDF     ", 8);
    std::memcpy(&b[8], "4.10    ", 8);
    std::memset(&b[16], ' ', 8);
    std::memcpy(&b[16], program.data(), std::min<std::size_t>(program.size(), 8));
    le::store<std::uint16_t>(&b[28], 410);
    return b; // id_unfin_flags 0: finished
}

Bytes headerBlock(const HeaderFields& f)
{
    return Builder("HD", 6, kHdBytes)
        .link(0, f.firstDataGroup)
        .link(1, f.firstHistory)
        .link(4, f.firstEvent)
        .link(5, f.comment)
        .field<std::uint64_t>(0, f.startNs) // tz, dst, flags, class, hd_flags, angle, distance: 0
        .take();
}

Bytes historyBlock(std::uint64_t comment, std::uint64_t timeNs)
{
    return Builder("FH", 2, kFhBytes).link(1, comment).field<std::uint64_t>(0, timeNs).take();
}

Bytes textBlock(std::string_view text) { return textLike("TX", text); }

Bytes metadataBlock(std::string_view xml) { return textLike("MD", xml); }

Bytes dataGroupBlock(std::uint64_t next, std::uint64_t firstChannelGroup, std::uint64_t data)
{
    return Builder("DG", 4, kDgBytes).link(0, next).link(1, firstChannelGroup).link(2, data).take();
}

Bytes channelGroupBlock(const ChannelGroupFields& f)
{
    return Builder("CG", 6, kCgBytes)
        .link(0, f.next)
        .link(1, f.firstChannel)
        .link(2, f.acquisitionName)
        .link(5, f.comment)
        .field<std::uint64_t>(0, 0) // cg_record_id
        .field<std::uint64_t>(8, f.cycleCount)
        .field<std::uint32_t>(24, f.dataBytes)
        .field<std::uint32_t>(28, f.invalidBytes)
        .take();
}

Bytes channelBlock(const ChannelFields& f)
{
    return Builder("CN", 8, kCnBytes)
        .link(0, f.next)
        .link(2, f.name)
        .link(4, f.conversion)
        .link(6, f.unit)
        .link(7, f.comment)
        .field<std::uint8_t>(0, f.type)
        .field<std::uint8_t>(1, f.sync)
        .field<std::uint8_t>(2, f.dataType)
        .field<std::uint32_t>(4, f.byteOffset)
        .field<std::uint32_t>(8, f.bitCount)
        .field<std::uint32_t>(12, f.flags)
        .field<std::uint32_t>(16, f.invalidBit)
        .take();
}

Bytes linearConversionBlock(double offset, double factor)
{
    return Builder("CC", 4, kCcLinearBytes)
        .field<std::uint8_t>(0, 1)  // cc_type: linear
        .field<std::uint16_t>(6, 2) // cc_val_count
        .field<double>(24, offset)  // cc_val[0]
        .field<double>(32, factor)  // cc_val[1]
        .take();
}

Bytes eventBlock(const EventFields& f)
{
    Builder b("EV", 5 + f.scopes.size(), eventBlockBytes(f.scopes.size()));
    b.link(0, f.next).link(2, f.range).link(3, f.name).link(4, f.comment);
    for (std::size_t i = 0; i < f.scopes.size(); ++i) b.link(5 + i, f.scopes[i]);
    return b.field<std::uint8_t>(0, f.type)
        .field<std::uint8_t>(1, 1) // ev_sync_type: time (s)
        .field<std::uint8_t>(2, f.rangeType)
        .field<std::uint8_t>(3, f.cause)
        .field<std::uint32_t>(8, static_cast<std::uint32_t>(f.scopes.size()))
        .field<std::int64_t>(16, f.baseValue)
        .field<double>(24, f.factor)
        .take();
}

Bytes zippedHeader(std::uint64_t originalBytes, std::uint64_t zippedBytes, std::uint32_t columns)
{
    return Builder("DZ", 0, kDzHeaderBytes, kDzHeaderBytes + zippedBytes)
        .text(0, "DT")
        .field<std::uint8_t>(2, columns > 0 ? 1 : 0)
        .field<std::uint32_t>(4, columns)
        .field<std::uint64_t>(8, originalBytes)
        .field<std::uint64_t>(16, zippedBytes)
        .take();
}

Bytes plainHeader(std::uint64_t bytes) { return Builder("DT", 0, 24, 24 + bytes).take(); }

Bytes dataListBlock(std::uint64_t next, std::span<const std::uint64_t> blocks, std::span<const std::uint64_t> offsets)
{
    Builder b("DL", 1 + blocks.size(), dataListBytes(blocks.size()));
    b.link(0, next);
    for (std::size_t i = 0; i < blocks.size(); ++i) b.link(1 + i, blocks[i]);
    b.field<std::uint32_t>(4, static_cast<std::uint32_t>(blocks.size())); // dl_flags 0: offsets listed
    for (std::size_t i = 0; i < offsets.size(); ++i) b.field<std::uint64_t>(8 + i * 8, offsets[i]);
    return b.take();
}

Bytes headerListBlock(std::uint64_t firstList, std::uint8_t zipType)
{
    return Builder("HL", 1, kHlBytes).link(0, firstList).field<std::uint8_t>(2, zipType).take(); // hl_flags 0
}

} // namespace lv::formats::mdf4
