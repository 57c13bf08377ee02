// Bounds-checked little-endian field reads over one structure of a file, naming the offset of a field that overruns.
#pragma once

#include "core/Error.h"
#include "core/LittleEndian.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <utility>

namespace lv::core {

// Every read checks `at + size` against the bytes held. A field that does not fit reads as zero (or empty), and
// the first such field is kept as a Truncated error naming the file and the field's byte offset in it
// (`fileOffset` + `at`), so a parser reads its fields and then returns `status()`.
class FieldReader {
public:
    FieldReader(std::span<const std::uint8_t> bytes, std::string path, std::int64_t fileOffset = 0)
        : m_bytes(bytes)
        , m_path(std::move(path))
        , m_fileOffset(fileOffset)
    {}

    std::uint8_t u8(std::size_t at) { return load<std::uint8_t>(at); }
    std::int8_t i8(std::size_t at) { return load<std::int8_t>(at); }
    std::uint16_t u16(std::size_t at) { return load<std::uint16_t>(at); }
    std::uint32_t u32(std::size_t at) { return load<std::uint32_t>(at); }
    std::int32_t i32(std::size_t at) { return load<std::int32_t>(at); }
    std::int64_t i64(std::size_t at) { return load<std::int64_t>(at); }
    std::uint64_t u64(std::size_t at) { return load<std::uint64_t>(at); }
    float f32(std::size_t at) { return load<float>(at); }
    double f64(std::size_t at) { return load<double>(at); }
    // A NUL-terminated (or full-width) text field of `size` bytes.
    std::string text(std::size_t at, std::size_t size) { return fits(at, size) ? le::text(m_bytes, at, size) : ""; }
    // `N` raw bytes (UUIDs, password validation fields).
    template <std::size_t N>
    std::array<std::uint8_t, N> raw(std::size_t at)
    {
        std::array<std::uint8_t, N> out{};
        if (fits(at, N)) std::memcpy(out.data(), m_bytes.data() + at, N);
        return out;
    }

    bool ok() const { return !m_error; }
    Status status() const { return m_error ? Status(*m_error) : Status(); }

private:
    template <typename T>
    T load(std::size_t at)
    {
        return fits(at, sizeof(T)) ? le::load<T>(m_bytes.data() + at) : T{};
    }
    bool fits(std::size_t at, std::size_t size)
    {
        if (at <= m_bytes.size() && size <= m_bytes.size() - at) return true;
        if (!m_error)
            m_error = makeError(ErrorCode::Truncated,
                                "a " + std::to_string(size) + "-byte field lies past the end of its " +
                                    std::to_string(m_bytes.size()) + "-byte structure",
                                m_path, m_fileOffset + static_cast<std::int64_t>(at));
        return false;
    }

    std::span<const std::uint8_t> m_bytes;
    std::string m_path;
    std::int64_t m_fileOffset = 0;
    std::optional<Error> m_error;
};

} // namespace lv::core
