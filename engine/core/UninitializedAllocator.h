// An allocator whose vectors leave what they grow into uninitialised, for byte buffers written whole right after
// (inflated blocks, records read from a file): no memset of megabytes that are overwritten at once.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace lv::core {

template <class T>
struct UninitializedAllocator : std::allocator<T> {
    UninitializedAllocator() = default;
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U>&) noexcept
    {}

    // Default construction leaves the value as it is; any other construction as std::allocator does it.
    template <class U, class... Args>
    void construct(U* at, Args&&... args)
    {
        if constexpr (sizeof...(Args) == 0)
            ::new (static_cast<void*>(at)) U;
        else
            ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
    }
};

// Bytes whose resize does not zero them.
using UninitializedBytes = std::vector<std::uint8_t, UninitializedAllocator<std::uint8_t>>;

} // namespace lv::core
