// String channels decoded to UTF-8 (fixed-length fields and VLSD signal data) and channels' samples as numbers or
// texts, with mdf-check's decoding rules (Python's "replace" errors, NUL cuts, VLSD offsets into the signal data).
#include "formats/mdf4/Mdf4Text.h"

#include "core/LittleEndian.h"
#include "formats/mdf4/Mdf4Block.h"
#include "formats/mdf4/Mdf4Data.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <libdeflate.h>
#include <memory>
#include <set>

namespace lv::formats::mdf4 {

namespace le = core::le;

namespace {

constexpr std::uint64_t kMaxSignalBytes = std::uint64_t{1} << 32;

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

constexpr std::uint32_t kReplacement = 0xFFFD;

// UTF-8 with each maximal invalid subpart replaced by one U+FFFD (Unicode's recommendation, Python's "replace").
std::string utf8(const std::uint8_t* p, std::size_t n)
{
    std::string out;
    out.reserve(n);
    for (std::size_t i = 0; i < n;) {
        const std::uint8_t b = p[i];
        if (b < 0x80) {
            out += static_cast<char>(b);
            ++i;
            continue;
        }
        std::size_t need = 0;
        std::uint8_t lo = 0x80, hi = 0xBF; // the range of the second byte
        if (b >= 0xC2 && b <= 0xDF)
            need = 1;
        else if (b >= 0xE0 && b <= 0xEF)
            need = 2, lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
        else if (b >= 0xF0 && b <= 0xF4)
            need = 3, lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
        std::size_t k = 1;
        for (; k <= need && i + k < n; ++k) {
            const std::uint8_t c = p[i + k];
            if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) break;
        }
        if (need == 0 || k <= need) {
            appendUtf8(out, kReplacement);
            i += need == 0 ? 1 : k;
            continue;
        }
        out.append(reinterpret_cast<const char*>(p + i), need + 1);
        i += need + 1;
    }
    return out;
}

std::string utf16(const std::uint8_t* p, std::size_t n, bool big)
{
    std::string out;
    const auto unit = [&](std::size_t i) -> std::uint32_t {
        return big ? (std::uint32_t{p[i]} << 8) | p[i + 1] : (std::uint32_t{p[i + 1]} << 8) | p[i];
    };
    std::size_t i = 0;
    for (; i + 1 < n; i += 2) {
        const std::uint32_t u = unit(i);
        if (u == 0) return out;
        if (u >= 0xD800 && u <= 0xDBFF && i + 3 >= n) { // a high surrogate cut off by the end: one U+FFFD
            appendUtf8(out, kReplacement);
            return out;
        }
        if (u >= 0xD800 && u <= 0xDBFF) {
            const std::uint32_t v = unit(i + 2);
            if (v >= 0xDC00 && v <= 0xDFFF) {
                appendUtf8(out, 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00));
                i += 2;
                continue;
            }
        }
        appendUtf8(out, u >= 0xD800 && u <= 0xDFFF ? kReplacement : u);
    }
    if (i < n) appendUtf8(out, kReplacement); // an odd byte at the end
    return out;
}

bool isString(DataType t) { return t >= DataType::StringLatin1 && t <= DataType::StringUtf16Be; }

// The records of `group` and where its data starts in each: the stream itself when sorted, else its own records.
struct GroupRecords {
    std::vector<std::uint8_t> own;
    const std::uint8_t* data = nullptr;
    std::uint64_t recordBytes = 0;
    std::uint8_t idBytes = 0;

    const std::uint8_t* record(std::uint64_t i) const { return data + i * recordBytes + idBytes; }
};

core::Result<GroupRecords> recordsFor(const io::ByteSource& file, const DataGroup& dg, const ChannelGroup& group,
                                      const std::vector<std::uint8_t>& records)
{
    GroupRecords r;
    const std::vector<std::uint8_t>* bytes = &records;
    if (dg.recordIdBytes != 0 && dg.groups.size() > 1) {
        auto own = recordsOfGroup(file, dg, group, records);
        if (!own) return own.error();
        r.own = std::move(*own);
        bytes = &r.own;
    } else {
        r.idBytes = dg.recordIdBytes;
    }
    r.data = bytes->data();
    r.recordBytes = r.idBytes + std::uint64_t{group.dataBytes} + group.invalidBytes;
    if (r.recordBytes == 0 || bytes->size() / r.recordBytes < group.cycleCount)
        return corrupt(file, dg.offset,
                       "the data holds fewer records than its channel group's " + std::to_string(group.cycleCount));
    return r;
}

core::Status checkField(const io::ByteSource& file, const ChannelGroup& group, const Channel& c)
{
    const std::uint64_t end = c.byteOffset + (std::uint64_t{c.bitOffset} + c.bitCount + 7) / 8;
    if (end > group.dataBytes || c.bitCount == 0 || (c.kind == ChannelKind::Vlsd && c.bitCount > 64))
        return corrupt(file, c.offset, "channel " + c.name + " lies outside its record");
    if (c.hasInvalidationBit() && c.invalidBit / 8 >= group.invalidBytes)
        return corrupt(file, c.offset, "invalidation bit outside the record");
    return {};
}

core::Status inflateInto(const io::ByteSource& file, const Block& b, std::vector<std::uint8_t>& out)
{
    if (b.data.size() < 24) return corrupt(file, b.offset, "##DZ block is shorter than its header");
    const std::string original(reinterpret_cast<const char*>(b.data.data()), 2);
    const std::uint8_t zipType = le::u8(b.data, 2);
    const std::uint64_t originalBytes = le::u64(b.data, 8), zipped = le::u64(b.data, 16);
    if (original != "SD") return corrupt(file, b.offset, "##DZ of signal data holds a \"" + original + "\" block");
    if (zipType != 0) return corrupt(file, b.offset, "##DZ of signal data is not plain deflate");
    if (zipped != b.data.size() - 24) return corrupt(file, b.offset, "##DZ data length does not match its block");
    if (originalBytes / 1032 > zipped + 1 || originalBytes > kMaxSignalBytes - out.size())
        return corrupt(file, b.offset,
                       "##DZ cannot inflate " + std::to_string(zipped) + " bytes to " + std::to_string(originalBytes));
    const std::size_t at = out.size();
    out.resize(at + originalBytes);
    std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)> d(libdeflate_alloc_decompressor(),
                                                                                        &libdeflate_free_decompressor);
    std::size_t got = 0;
    if (!d ||
        libdeflate_zlib_decompress(d.get(), b.data.data() + 24, zipped, out.data() + at, originalBytes, &got) !=
            LIBDEFLATE_SUCCESS ||
        got != originalBytes)
        return corrupt(file, b.offset, "##DZ data does not inflate to its " + std::to_string(originalBytes) + " bytes");
    return {};
}

// The signal data under `at` (SD, DZ of SD, DL and HL lists of those), concatenated.
core::Status gatherSignalData(const io::ByteSource& file, std::uint64_t at, int depth, std::set<std::uint64_t>& seen,
                              std::vector<std::uint8_t>& out)
{
    if (at == 0) return {};
    if (depth > 8) return corrupt(file, at, "signal data lists nest more than 8 deep");
    if (!seen.insert(at).second) return corrupt(file, at, "a signal data block is linked twice");
    auto b = readBlock(file, at, {"SD", "DZ", "DL", "HL"}, 64);
    if (!b) return b.error();
    if (b->id == "SD") {
        const std::uint64_t bytes = b->length - kHeaderBytes - b->links.size() * 8;
        if (bytes > kMaxSignalBytes - out.size())
            return corrupt(file, at, "the signal data holds more than " + std::to_string(kMaxSignalBytes) + " bytes");
        const std::size_t start = out.size();
        out.resize(start + bytes);
        return file.readAt(at + kHeaderBytes + b->links.size() * 8, {out.data() + start, bytes});
    }
    if (b->id == "DZ") {
        auto whole = readBlock(file, at, {"DZ"}, kMaxSignalBytes);
        if (!whole) return whole.error();
        return inflateInto(file, *whole, out);
    }
    if (b->id == "HL") return gatherSignalData(file, b->link(0), depth + 1, seen, out);
    for (std::uint64_t list = at; list != 0;) {
        auto dl = list == at ? core::Result<Block>(*b) : readBlock(file, list, {"DL"});
        if (!dl) return dl.error();
        if (dl->data.size() < 8) return corrupt(file, list, "##DL block is shorter than its header");
        const std::uint32_t count = le::u32(dl->data, 4);
        if (dl->links.size() < 1u + count)
            return corrupt(file, list, "##DL lists " + std::to_string(count) + " blocks but has room for fewer");
        for (std::uint32_t i = 0; i < count; ++i)
            LV_TRY(gatherSignalData(file, dl->links[1 + i], depth + 1, seen, out));
        list = dl->link(0);
        if (list != 0 && !seen.insert(list).second) return corrupt(file, list, "the signal data list loops back");
    }
    return {};
}

// The values of a VLSD channel's signal data: (u32 length, bytes) back to back; each value's start, in order.
core::Result<std::vector<std::uint64_t>> valueStarts(const io::ByteSource& file, std::uint64_t where,
                                                     const std::vector<std::uint8_t>& data)
{
    std::vector<std::uint64_t> starts;
    for (std::uint64_t pos = 0; pos + 4 <= data.size();) {
        const std::uint64_t n = le::u32(data, pos);
        if (n > data.size() - pos - 4)
            return corrupt(file, where,
                           "the signal data holds a value of " + std::to_string(n) + " bytes at byte " +
                               std::to_string(pos) + ", past its end (" + std::to_string(data.size()) + " bytes)");
        starts.push_back(pos);
        pos += 4 + n;
    }
    return starts;
}

std::uint64_t unsignedField(const Channel& c, const std::uint8_t* record)
{
    const std::uint8_t* p = record + c.byteOffset;
    const std::size_t bytes = (c.bitOffset + c.bitCount + 7) / 8;
    std::uint64_t word = 0;
    for (std::size_t i = 0; i < bytes && i < 8; ++i) word |= std::uint64_t{p[i]} << (8 * i);
    word >>= c.bitOffset;
    if (c.bitCount < 64) word &= (std::uint64_t{1} << c.bitCount) - 1;
    return word;
}

core::Result<std::vector<std::uint8_t>> signalData(const io::ByteSource& file, const DataGroup& dg,
                                                   const Channel& channel, const std::vector<std::uint8_t>& records)
{
    std::vector<std::uint8_t> data;
    if (channel.dataLink == 0) return data;
    auto head = readBlock(file, channel.dataLink, {"SD", "DZ", "DL", "HL", "CG"}, 0);
    if (!head) return head.error();
    if (head->id == "CG") {
        const auto vlsd = std::find_if(dg.groups.begin(), dg.groups.end(),
                                       [&](const ChannelGroup& g) { return g.offset == channel.dataLink; });
        if (vlsd == dg.groups.end() || !vlsd->isVlsd() || dg.recordIdBytes == 0)
            return corrupt(file, channel.offset,
                           "VLSD channel " + channel.name +
                               " points to a channel group that is not a VLSD group of "
                               "its data group");
        return recordsOfGroup(file, dg, *vlsd, records); // its records: a u32 length, then the bytes
    }
    std::set<std::uint64_t> seen;
    LV_TRY(gatherSignalData(file, channel.dataLink, 0, seen, data));
    return data;
}

} // namespace

std::string decodeString(DataType type, const std::uint8_t* p, std::size_t n)
{
    if (type == DataType::StringUtf16Le || type == DataType::StringUtf16Be)
        return utf16(p, n, type == DataType::StringUtf16Be);
    const auto* nul = static_cast<const std::uint8_t*>(std::memchr(p, 0, n));
    if (nul) n = static_cast<std::size_t>(nul - p);
    if (type == DataType::StringUtf8) return utf8(p, n);
    std::string out; // Latin-1
    for (std::size_t i = 0; i < n; ++i) appendUtf8(out, p[i]);
    return out;
}

core::Result<std::vector<std::string>> channelTexts(const io::ByteSource& file, const DataGroup& dg,
                                                    const ChannelGroup& group, const Channel& channel,
                                                    const std::vector<std::uint8_t>& records)
{
    if (!isString(channel.dataType))
        return core::makeError(core::ErrorCode::Unsupported, "MDF4: channel " + channel.name + " holds no strings",
                               file.path(), static_cast<std::int64_t>(channel.offset));
    auto own = recordsFor(file, dg, group, records);
    if (!own) return own.error();
    LV_TRY(checkField(file, group, channel));
    std::vector<std::string> texts;
    texts.reserve(group.cycleCount);
    if (channel.kind != ChannelKind::Vlsd) {
        for (std::uint64_t i = 0; i < group.cycleCount; ++i)
            texts.push_back(decodeString(channel.dataType, own->record(i) + channel.byteOffset, channel.bitCount / 8));
        return texts;
    }
    auto data = signalData(file, dg, channel, records);
    if (!data) return data.error();
    auto starts = valueStarts(file, channel.dataLink, *data);
    if (!starts) return starts.error();
    for (std::uint64_t i = 0; i < group.cycleCount; ++i) {
        const std::uint64_t at = unsignedField(channel, own->record(i));
        const auto found = std::lower_bound(starts->begin(), starts->end(), at);
        if (found == starts->end() || *found != at)
            return corrupt(file, channel.offset,
                           "record " + std::to_string(i) + " of VLSD channel " + channel.name + " points to byte " +
                               std::to_string(at) + " of its signal data, where no value starts");
        texts.push_back(decodeString(channel.dataType, data->data() + at + 4, le::u32(*data, at)));
    }
    return texts;
}

core::Result<ChannelSamples> channelSamples(const io::ByteSource& file, const DataGroup& dg, const ChannelGroup& group,
                                            const Channel& channel, const std::vector<std::uint8_t>& records)
{
    const bool virtualChannel = channel.kind == ChannelKind::VirtualMaster || channel.kind == ChannelKind::VirtualData;
    const bool numeric = channel.dataType <= DataType::FloatBe && channel.kind != ChannelKind::Vlsd;
    if (!numeric && !isString(channel.dataType))
        return core::makeError(core::ErrorCode::Unsupported,
                               "MDF4: channel " + channel.name + " holds " + dataTypeName(channel.dataType) +
                                   " values, which are not read",
                               file.path(), static_cast<std::int64_t>(channel.offset));
    if (channel.hasConversion && channel.conversion->kind == ConversionKind::Algebraic &&
        channel.conversion->formula.empty())
        return core::makeError(core::ErrorCode::Unsupported,
                               "MDF4: the formula \"" + channel.conversion->formulaText + "\" of channel " +
                                   channel.name + " is not read: " + channel.conversion->formulaProblem,
                               file.path(), static_cast<std::int64_t>(channel.conversion->offset));
    auto own = recordsFor(file, dg, group, records);
    if (!own) return own.error();
    if (!virtualChannel) LV_TRY(checkField(file, group, channel));
    ChannelSamples out;
    out.values.reserve(group.cycleCount);
    if (numeric) {
        for (std::uint64_t i = 0; i < group.cycleCount; ++i) {
            const double raw = virtualChannel ? static_cast<double>(i) : rawValue(channel, own->record(i));
            out.values.push_back(channel.hasConversion ? convertToPhysical(*channel.conversion, raw)
                                                       : Physical{raw, {}});
        }
    } else {
        auto texts = channelTexts(file, dg, group, channel, records);
        if (!texts) return texts.error();
        for (std::string& t : *texts)
            out.values.push_back(channel.hasConversion ? convertText(*channel.conversion, t)
                                                       : Physical{std::nan(""), std::move(t)});
    }
    out.invalid.assign(group.cycleCount, channel.allInvalid() ? 1 : 0);
    if (channel.hasInvalidationBit())
        for (std::uint64_t i = 0; i < group.cycleCount; ++i) {
            const std::uint8_t* record = own->record(i);
            out.invalid[i] = (record[group.dataBytes + channel.invalidBit / 8] >> (channel.invalidBit % 8)) & 1u;
        }
    return out;
}

} // namespace lv::formats::mdf4
