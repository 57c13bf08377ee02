// Little-endian field writer and bounds-checked reader for the engine's own cache files (snapshots, pyramids).
#pragma once

#include "core/LittleEndian.h"

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lv::core {

struct ByteWriter {
    std::vector<std::uint8_t> b;
    template <typename T>
    void put(T v)
    {
        const std::size_t at = b.size();
        b.resize(at + sizeof(T));
        le::store<T>(&b[at], v);
    }
    void bytes(const std::uint8_t* p, std::size_t n) { b.insert(b.end(), p, p + n); }
    void text(const std::string& s)
    {
        put<std::uint32_t>(static_cast<std::uint32_t>(s.size()));
        b.insert(b.end(), s.begin(), s.end());
    }
};

// Any overrun marks the input damaged (ok = false) and yields zeros from then on.
struct ByteReader {
    std::span<const std::uint8_t> b;
    std::size_t at = 0;
    bool ok = true;
    template <typename T>
    T get()
    {
        if (!ok || b.size() - at < sizeof(T)) return ok = false, T{};
        const T v = le::load<T>(b.data() + at);
        at += sizeof(T);
        return v;
    }
    std::string text()
    {
        const auto n = get<std::uint32_t>();
        if (!ok || b.size() - at < n) return ok = false, std::string{};
        std::string s(reinterpret_cast<const char*>(b.data() + at), n);
        at += n;
        return s;
    }
    std::size_t count(std::size_t itemBytes) // a vector length that the remaining bytes can hold
    {
        const auto n = get<std::uint64_t>();
        if (!ok || n > (b.size() - at) / std::max<std::size_t>(itemBytes, 1)) return ok = false, 0;
        return static_cast<std::size_t>(n);
    }
    bool fits(std::uint64_t n) { return ok = ok && n <= b.size() - at; } // n more bytes remain
    bool done() const { return ok && at == b.size(); }
};

} // namespace lv::core
