// Block headers and links, bounds-checked against the file before anything is allocated; TX and MD texts.
#include "formats/mdf4/Mdf4Block.h"

#include "core/LittleEndian.h"

#include <algorithm>

namespace lv::formats::mdf4 {

namespace le = core::le;

core::Error corrupt(const io::ByteSource& file, std::uint64_t offset, const std::string& what)
{
    return core::makeError(core::ErrorCode::Corrupt, "MDF4: " + what, file.path(), static_cast<std::int64_t>(offset));
}

namespace {

constexpr std::size_t kSmallBlockBytes = 256; // read with the header at once

std::string idList(std::initializer_list<std::string_view> ids)
{
    std::string s;
    for (std::string_view id : ids) s += (s.empty() ? "##" : " or ##") + std::string(id);
    return s;
}

std::string printable(const std::uint8_t* p, std::size_t n)
{
    std::string s;
    for (std::size_t i = 0; i < n; ++i) s += p[i] >= 0x20 && p[i] < 0x7f ? static_cast<char>(p[i]) : '?';
    return s;
}

// "&lt;" and the other four predefined XML entities; numeric ones are kept as they are.
std::string unescapeXml(std::string_view s)
{
    static constexpr std::pair<std::string_view, char> kEntities[] = {
        {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        bool replaced = false;
        for (const auto& [entity, c] : kEntities)
            if (s.substr(i, entity.size()) == entity) {
                out += c;
                i += entity.size();
                replaced = true;
                break;
            }
        if (!replaced) out += s[i++];
    }
    return out;
}

std::string_view trimmed(std::string_view s)
{
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

// The UTF-8 up to the first NUL of a data section (which may be empty).
std::string textOf(const Block& b) { return b.data.empty() ? std::string() : le::text(b.data, 0, b.data.size()); }

} // namespace

std::string plainText(const std::string& text)
{
    const std::string_view t = trimmed(text);
    if (t.empty() || t.front() != '<') return text;
    if (const auto open = t.find("<TX>"); open != std::string_view::npos) {
        const auto end = t.find("</TX>", open + 4);
        if (end != std::string_view::npos) {
            const std::string content = unescapeXml(t.substr(open + 4, end - open - 4));
            return std::string(trimmed(content));
        }
    }
    for (auto at = t.find("<TX"); at != std::string_view::npos; at = t.find("<TX", at + 3)) {
        const auto close = t.find_first_not_of(" \t\r\n", at + 3);
        if (close != std::string_view::npos && t.substr(close, 2) == "/>") return {};
    }
    return text;
}

core::Result<Block> readBlock(const io::ByteSource& file, std::uint64_t offset,
                              std::initializer_list<std::string_view> ids, std::uint64_t maxData)
{
    const std::uint64_t size = file.size();
    if (offset % 8 != 0 || offset > size || size - offset < kHeaderBytes)
        return corrupt(file, offset,
                       "a link points outside the file or off the 8-byte grid (to byte " + std::to_string(offset) +
                           " of " + std::to_string(size) + ")");
    // The header with what follows it in one read: most blocks of a tree (CN, CC, TX names) fit in it whole.
    std::uint8_t head[kSmallBlockBytes];
    const std::uint64_t held = std::min<std::uint64_t>(sizeof head, size - offset);
    LV_TRY(file.readAt(offset, {head, held}));
    Block b;
    b.offset = offset;
    b.id.assign(reinterpret_cast<const char*>(head + 2), 2);
    const bool known = head[0] == '#' && head[1] == '#' &&
                       std::any_of(ids.begin(), ids.end(), [&](std::string_view id) { return id == b.id; });
    if (!known)
        return corrupt(file, offset, "expected a block " + idList(ids) + ", found \"" + printable(head, 4) + "\"");
    b.length = le::u64(head, 8);
    const std::uint64_t linkCount = le::u64(head, 16);
    if (b.length < kHeaderBytes || b.length > size - offset)
        return corrupt(file, offset,
                       "##" + b.id + " block length " + std::to_string(b.length) + " runs past the end of the file");
    if (linkCount > (b.length - kHeaderBytes) / 8)
        return corrupt(file, offset,
                       "##" + b.id + " block of " + std::to_string(b.length) + " bytes cannot hold " +
                           std::to_string(linkCount) + " links");
    const std::uint64_t dataStart = kHeaderBytes + linkCount * 8; // from the block's start
    const std::uint64_t dataBytes = std::min(b.length - dataStart, maxData);
    b.links.resize(linkCount);
    b.data.resize(dataBytes);
    if (dataStart + dataBytes <= held) {
        for (std::size_t i = 0; i < linkCount; ++i) b.links[i] = le::u64(head, kHeaderBytes + i * 8);
        std::copy_n(head + dataStart, dataBytes, b.data.begin());
        return b;
    }
    // Links read as bytes, then put in host order in place.
    const std::span<std::uint8_t> linkBytes(reinterpret_cast<std::uint8_t*>(b.links.data()), linkCount * 8);
    LV_TRY(file.readAt(offset + kHeaderBytes, linkBytes));
    for (std::size_t i = 0; i < linkCount; ++i) b.links[i] = le::u64(linkBytes, i * 8);
    LV_TRY(file.readAt(offset + dataStart, b.data));
    return b;
}

core::Result<std::string> readRawText(const io::ByteSource& file, std::uint64_t offset)
{
    if (offset == 0) return std::string();
    auto b = readBlock(file, offset, {"TX", "MD"}, std::uint64_t{1} << 20);
    if (!b) return b.error();
    return textOf(*b);
}

core::Result<std::string> readText(const io::ByteSource& file, std::uint64_t offset)
{
    if (offset == 0) return std::string();
    auto b = readBlock(file, offset, {"TX", "MD"}, std::uint64_t{1} << 20);
    if (!b) return b.error();
    return plainText(textOf(*b));
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

} // namespace lv::formats::mdf4
