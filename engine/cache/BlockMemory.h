// Memory for decoded blocks outside the malloc heap: page-rounded slots in mmap'ed slabs, whose pages go back to
// the system as soon as a block is freed. Resident memory then follows the blocks alive, not the heap's
// high-water mark and fragmentation (blocks freed in LRU order, interleaved with small allocations, kept tens of
// MB resident in glibc's heap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lv::cache {

class BlockMemory {
public:
    // Page-aligned memory for `bytes` (falls back to operator new when no slab can be mapped; std::bad_alloc for a
    // size beyond a quarter slab the system refuses).
    static void* allocate(std::size_t bytes);
    static void deallocate(void* p, std::size_t bytes);
    // What `bytes` takes: rounded up to whole pages.
    static std::size_t footprint(std::size_t bytes);
    static std::size_t mappedBytes(); // slabs mapped now (resident or not)
};

template <typename T>
struct BlockAllocator {
    using value_type = T;
    BlockAllocator() = default;
    template <typename U>
    BlockAllocator(const BlockAllocator<U>&) noexcept
    {}
    T* allocate(std::size_t n) { return static_cast<T*>(BlockMemory::allocate(n * sizeof(T))); }
    void deallocate(T* p, std::size_t n) noexcept { BlockMemory::deallocate(p, n * sizeof(T)); }
    template <typename U>
    bool operator==(const BlockAllocator<U>&) const noexcept
    {
        return true;
    }
};

// A decoded block's samples (stored counts, kNoSample where missing).
using BlockSamples = std::vector<std::int32_t, BlockAllocator<std::int32_t>>;

} // namespace lv::cache
