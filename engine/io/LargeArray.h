// An array of tens of megabytes filled once (an MDF 4 group's master times): zeroed pages straight from the
// system, on huge pages where it offers them, so that its first touch costs a fault per 2 MiB rather than per 4 KiB.
// Arrays under kLargeArrayBytes come from the heap (pages of their own would be fresh, hence faulted, each time).
#pragma once

#include "io/MemoryPages.h"

#include <cstddef>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

namespace lv::io {

inline constexpr std::size_t kLargeArrayBytes = std::size_t{2} << 20; // one huge page

template <class T>
class LargeArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

public:
    LargeArray() = default;
    // `count` values, all zero bits; std::bad_alloc when the system refuses the memory.
    explicit LargeArray(std::size_t count) : m_count(count)
    {
        if (count == 0) return;
        if (count > (static_cast<std::size_t>(-1) - pageSize()) / sizeof(T)) throw std::bad_alloc();
        if (count * sizeof(T) < kLargeArrayBytes) {
            m_data = new T[count]();
            return;
        }
        m_bytes = (count * sizeof(T) + pageSize() - 1) / pageSize() * pageSize();
        m_data = static_cast<T*>(allocatePages(m_bytes));
        if (!m_data) throw std::bad_alloc();
        adviseHugePages(m_data, m_bytes);
    }
    LargeArray(LargeArray&& other) noexcept { swap(other); }
    LargeArray& operator=(LargeArray&& other) noexcept
    {
        LargeArray(std::move(other)).swap(*this);
        return *this;
    }
    LargeArray(const LargeArray&) = delete;
    LargeArray& operator=(const LargeArray&) = delete;
    ~LargeArray()
    {
        if (m_bytes)
            freePages(m_data, m_bytes);
        else
            delete[] m_data;
    }

    T* data() { return m_data; }
    const T* data() const { return m_data; }
    std::size_t size() const { return m_count; }
    T& operator[](std::size_t i) { return m_data[i]; }
    const T& operator[](std::size_t i) const { return m_data[i]; }
    std::span<T> span() { return {m_data, m_count}; }
    std::span<const T> span() const { return {m_data, m_count}; }

private:
    void swap(LargeArray& other) noexcept
    {
        std::swap(m_data, other.m_data);
        std::swap(m_count, other.m_count);
        std::swap(m_bytes, other.m_bytes);
    }

    T* m_data = nullptr;
    std::size_t m_count = 0, m_bytes = 0; // m_bytes: of the pages, 0 for an array from the heap
};

} // namespace lv::io
