// Parses tar headers in place: ustar/GNU/pax, octal and base-256 numbers, checksum verification.
#include "io/TarIndex.h"

#include <array>
#include <cstring>
#include <optional>
#include <span>

namespace lv::io {

namespace {

constexpr std::uint64_t kBlock = 512;

using core::ErrorCode;
using core::makeError;

bool allZero(std::span<const std::uint8_t> b)
{
    for (std::uint8_t c : b)
        if (c != 0) return false;
    return true;
}

// Octal (space/NUL padded) or GNU base-256 number field. Returns false when malformed.
bool parseNumber(std::span<const std::uint8_t> field, std::uint64_t& value)
{
    value = 0;
    if (!field.empty() && (field[0] & 0x80)) {
        if (field[0] & 0x40) return false; // negative
        value = field[0] & 0x3f;
        for (std::size_t i = 1; i < field.size(); ++i) {
            if (value >> 55) return false;
            value = (value << 8) | field[i];
        }
        return true;
    }
    std::size_t i = 0;
    while (i < field.size() && field[i] == ' ') ++i;
    bool any = false;
    for (; i < field.size() && field[i] >= '0' && field[i] <= '7'; ++i) {
        if (value >> 60) return false;
        value = value * 8 + (field[i] - '0');
        any = true;
    }
    for (; i < field.size(); ++i)
        if (field[i] != ' ' && field[i] != 0) return false;
    return any;
}

bool checksumOk(std::span<const std::uint8_t> h)
{
    std::uint64_t stored = 0;
    if (!parseNumber(h.subspan(148, 8), stored)) return false;
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < kBlock; ++i) sum += (i >= 148 && i < 156) ? ' ' : h[i];
    return sum == stored;
}

std::string field(std::span<const std::uint8_t> h, std::size_t at, std::size_t size)
{
    std::size_t n = 0;
    while (n < size && h[at + n] != 0) ++n;
    return std::string(reinterpret_cast<const char*>(&h[at]), n);
}

std::string normalise(std::string path)
{
    while (path.rfind("./", 0) == 0) path.erase(0, 2);
    while (!path.empty() && path.back() == '/') path.pop_back();
    return path;
}

// Extracts "path=" from pax extended-header records ("LEN key=value\n").
std::string paxPath(const std::vector<std::uint8_t>& data)
{
    std::size_t pos = 0;
    std::string path;
    while (pos < data.size()) {
        const std::size_t left = data.size() - pos;
        std::size_t len = 0, p = pos;
        while (p < data.size() && data[p] >= '0' && data[p] <= '9' && len <= left) len = len * 10 + (data[p++] - '0');
        // LEN counts its own digits, the space and the final newline, and must stay inside the data.
        if (p >= data.size() || data[p] != ' ' || len > left || len < p - pos + 2) break;
        const std::string record(reinterpret_cast<const char*>(&data[p + 1]), pos + len - p - 2);
        if (record.rfind("path=", 0) == 0) path = record.substr(5);
        pos += len;
    }
    return path;
}

// Headers are read one at a time; each that lies outside the range hinted last has the next 64 KiB hinted to the
// archive. A MEF segment's small members (metadata, index) and the next header usually lie in that range: on a
// cold page cache one disk request instead of three, and those members are then cached for the open that reads
// them. On a warm cache the hint costs a page-cache lookup, and no bytes are copied that are not needed.
class HeaderReader {
public:
    explicit HeaderReader(const ByteSource& source) : m_source(source) {}
    core::Status read(std::uint64_t offset, std::span<std::uint8_t, kBlock> out)
    {
        if (offset < m_hinted || offset + kBlock > m_hintedEnd) {
            m_hinted = offset;
            m_hintedEnd = offset + kAhead;
            m_source.willNeed(offset, kAhead);
        }
        return m_source.readAt(offset, out);
    }

private:
    static constexpr std::uint64_t kAhead = std::uint64_t{64} * 1024;
    const ByteSource& m_source;
    std::uint64_t m_hinted = 0, m_hintedEnd = 0;
};

// A zero block at `zero`: the end of the archive when only zeros follow to the end of the file (GNU tar pads to a
// 10,240-byte record), else damage: a zeroed header with member headers after it, or bytes after the end marker.
core::Status checkEnd(const ByteSource& archive, HeaderReader& headers, std::uint64_t zero)
{
    std::array<std::uint8_t, kBlock> h{};
    const std::uint64_t total = archive.size();
    std::optional<std::uint64_t> firstData;
    for (std::uint64_t at = zero + kBlock; at + kBlock <= total; at += kBlock) {
        LV_TRY(headers.read(at, h));
        if (allZero(h)) continue;
        if (checksumOk(h))
            return makeError(ErrorCode::Corrupt,
                             "tar header is all zeros, but a member header follows at byte " + std::to_string(at),
                             archive.path(), static_cast<std::int64_t>(zero));
        if (!firstData) firstData = at;
    }
    if (!firstData && total % kBlock != 0) {
        auto tail = archive.read(total - total % kBlock, total % kBlock);
        if (!tail) return tail.error();
        if (!allZero(*tail)) firstData = total - total % kBlock;
    }
    if (firstData)
        return makeError(ErrorCode::Corrupt,
                         "tar archive has data after its end marker (at byte " + std::to_string(*firstData) + ")",
                         archive.path(), static_cast<std::int64_t>(zero));
    return {};
}

} // namespace

core::Result<std::vector<TarMember>> indexTar(const ByteSource& archive)
{
    std::vector<TarMember> members;
    std::array<std::uint8_t, kBlock> h{};
    HeaderReader headers(archive);
    std::string pendingName;
    std::uint64_t offset = 0;
    const std::uint64_t total = archive.size();
    while (offset + kBlock <= total) {
        LV_TRY(headers.read(offset, h));
        if (allZero(h)) { // the end-of-archive marker, unless members follow
            LV_TRY(checkEnd(archive, headers, offset));
            return members;
        }
        const auto at = static_cast<std::int64_t>(offset);
        if (!checksumOk(h)) return makeError(ErrorCode::Corrupt, "tar header checksum mismatch", archive.path(), at);
        std::uint64_t size = 0, mtime = 0;
        if (!parseNumber(std::span(h).subspan(124, 12), size))
            return makeError(ErrorCode::Corrupt, "tar header has a malformed size", archive.path(), at);
        parseNumber(std::span(h).subspan(136, 12), mtime);
        const std::uint64_t data = offset + kBlock;
        if (size > total - data)
            return makeError(ErrorCode::Truncated, "tar member extends past the end of the archive", archive.path(),
                             at);
        const char type = static_cast<char>(h[156]);
        if (type == 'L' || type == 'x') {
            auto bytes = archive.read(data, size);
            if (!bytes) return bytes.error();
            pendingName = type == 'L' ? field(*bytes, 0, bytes->size()) : paxPath(*bytes);
        } else if (type == '0' || type == '\0' || type == '5' || type == '7') {
            std::string name = field(h, 0, 100);
            if (std::memcmp(&h[257], "ustar", 5) == 0 && h[345] != 0)
                name = field(h, 345, 155).append("/").append(name);
            if (!pendingName.empty()) name = pendingName;
            pendingName.clear();
            TarMember m;
            m.isDirectory = type == '5' || (!name.empty() && name.back() == '/');
            m.path = normalise(name);
            m.dataOffset = data;
            m.size = m.isDirectory ? 0 : size;
            m.mtime = static_cast<std::int64_t>(mtime);
            if (!m.path.empty()) members.push_back(std::move(m));
        } // other types (links, devices, global pax 'g') carry nothing a recording needs
        offset = data + (size + kBlock - 1) / kBlock * kBlock;
    }
    if (offset == total && total > 0) return members; // archive without end marker
    return makeError(ErrorCode::Truncated, "tar archive ends inside a header", archive.path(),
                     static_cast<std::int64_t>(offset));
}

} // namespace lv::io
