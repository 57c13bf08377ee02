// Bounds-checked big-endian field reads over one CDF internal record (every internal record is big-endian,
// whatever the encoding of the values), naming the file offset of a field that overruns.
#pragma once

#include "core/Error.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>

namespace lv::formats::cdf {

class CdfFields {
public:
    // `wideOffsets`: CDF 3 files hold offsets and record sizes in 8 bytes, CDF 2 files in 4.
    CdfFields(std::span<const std::uint8_t> bytes, std::string path, std::uint64_t fileOffset, bool wideOffsets)
        : m_bytes(bytes)
        , m_path(std::move(path))
        , m_fileOffset(fileOffset)
        , m_wide(wideOffsets)
    {}

    std::int32_t i32(std::size_t at) { return static_cast<std::int32_t>(load(at, 4)); }
    std::int64_t i64(std::size_t at) { return static_cast<std::int64_t>(load(at, 8)); }
    // An offset or size field: 8 bytes in CDF 3, 4 in CDF 2 (read as signed, as the format defines them).
    std::int64_t offset(std::size_t at)
    {
        return m_wide ? i64(at) : static_cast<std::int64_t>(static_cast<std::int32_t>(load(at, 4)));
    }
    std::size_t offsetSize() const { return m_wide ? 8 : 4; }
    // A NUL-padded text field of `size` bytes, up to its first NUL.
    std::string text(std::size_t at, std::size_t size)
    {
        if (!fits(at, size)) return {};
        const char* p = reinterpret_cast<const char*>(m_bytes.data() + at);
        return std::string(p, strnlen(p, size));
    }
    std::span<const std::uint8_t> bytes(std::size_t at, std::size_t size)
    {
        return fits(at, size) ? m_bytes.subspan(at, size) : std::span<const std::uint8_t>();
    }

    bool ok() const { return !m_error; }
    core::Status status() const { return m_error ? core::Status(*m_error) : core::Status(); }

private:
    std::uint64_t load(std::size_t at, std::size_t size)
    {
        if (!fits(at, size)) return 0;
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < size; ++i) v = v << 8 | m_bytes[at + i];
        return v;
    }
    bool fits(std::size_t at, std::size_t size)
    {
        if (at <= m_bytes.size() && size <= m_bytes.size() - at) return true;
        if (!m_error)
            m_error = core::makeError(core::ErrorCode::Truncated,
                                      "a " + std::to_string(size) + "-byte field lies past the end of its " +
                                          std::to_string(m_bytes.size()) + "-byte record",
                                      m_path, static_cast<std::int64_t>(m_fileOffset + at));
        return false;
    }

    std::span<const std::uint8_t> m_bytes;
    std::string m_path;
    std::uint64_t m_fileOffset = 0;
    bool m_wide = true;
    std::optional<core::Error> m_error;
};

} // namespace lv::formats::cdf
