// Slabs of 2 MiB per slot size (io/MemoryPages); a freed slot's pages are given back to the system and the slot
// reused later; an empty slab is unmapped. Sizes beyond a quarter slab get a mapping of their own.
#include "cache/BlockMemory.h"

#include "io/MemoryPages.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <new>

namespace lv::cache {

namespace {

constexpr std::size_t kSlabBytes = 2u << 20;

// AddressSanitizer does not see into private mappings: sanitized builds take blocks from operator new, so
// overflows stay caught.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

std::size_t pageBytes() { return io::pageSize(); }

struct Slab {
    std::byte* base = nullptr;
    std::size_t slotBytes = 0;
    std::vector<std::uint32_t> freeSlots;
    std::uint32_t used = 0;
};

// Slabs by base address (to find a slot's slab), and per slot size those with a free slot.
struct Slabs {
    std::mutex mutex;
    std::map<std::byte*, std::unique_ptr<Slab>> byBase;
    std::map<std::size_t, std::map<std::byte*, Slab*>> withRoom;
    std::size_t mapped = 0;
};

Slabs& slabs()
{
    static Slabs* s = new Slabs(); // never destroyed: blocks may outlive static destruction
    return *s;
}

void* mapPages(std::size_t bytes) { return io::allocatePages(bytes); }

Slab* newSlab(Slabs& s, std::size_t slotBytes) // s.mutex held
{
    auto* base = static_cast<std::byte*>(mapPages(kSlabBytes));
    if (!base) return nullptr;
    auto slab = std::make_unique<Slab>(Slab{base, slotBytes, {}, 0});
    const auto slots = static_cast<std::uint32_t>(kSlabBytes / slotBytes);
    for (std::uint32_t i = slots; i-- > 0;) slab->freeSlots.push_back(i);
    Slab* raw = slab.get();
    s.byBase.emplace(base, std::move(slab));
    s.withRoom[slotBytes].emplace(base, raw);
    s.mapped += kSlabBytes;
    return raw;
}

} // namespace

std::size_t BlockMemory::footprint(std::size_t bytes)
{
    const std::size_t page = pageBytes();
    return (std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
}

void* BlockMemory::allocate(std::size_t bytes)
{
    if (kSanitized) return ::operator new (bytes, std::align_val_t{64});
    const std::size_t slot = footprint(bytes);
    if (slot > kSlabBytes / 4) { // a mapping of its own
        if (void* p = mapPages(slot)) return p;
        throw std::bad_alloc();
    }
    void* p = nullptr;
    {
        Slabs& s = slabs();
        std::lock_guard lock(s.mutex);
        auto& room = s.withRoom[slot];
        Slab* slab = room.empty() ? newSlab(s, slot) : room.begin()->second; // lowest address first: dense
        if (slab) {
            const std::uint32_t i = slab->freeSlots.back();
            slab->freeSlots.pop_back();
            ++slab->used;
            if (slab->freeSlots.empty()) room.erase(slab->base);
            p = slab->base + std::size_t{i} * slot;
        }
    }
    return p ? p : ::operator new (slot, std::align_val_t{64}); // no slab could be mapped
}

void BlockMemory::deallocate(void* p, std::size_t bytes)
{
    if (kSanitized) {
        ::operator delete (p, std::align_val_t{64});
        return;
    }
    const std::size_t slot = footprint(bytes);
    auto* at = static_cast<std::byte*>(p);
    Slabs& s = slabs();
    std::unique_lock lock(s.mutex);
    auto it = s.byBase.upper_bound(at);
    Slab* slab = it == s.byBase.begin() ? nullptr : std::prev(it)->second.get();
    if (!slab || at >= slab->base + kSlabBytes || slab->slotBytes != slot) {
        lock.unlock();
        if (slot > kSlabBytes / 4)
            io::freePages(p, slot);
        else
            ::operator delete (p, std::align_val_t{64}); // what allocate fell back to
        return;
    }
    io::discardPages(at, slot); // the pages leave the resident set now
    slab->freeSlots.push_back(static_cast<std::uint32_t>((at - slab->base) / slot));
    --slab->used;
    auto& room = s.withRoom[slot];
    room.emplace(slab->base, slab);
    if (slab->used == 0 && room.size() > 1) { // keep one empty slab per size: no map/unmap churn
        room.erase(slab->base);
        io::freePages(slab->base, kSlabBytes);
        s.mapped -= kSlabBytes;
        s.byBase.erase(slab->base);
    }
}

std::size_t BlockMemory::mappedBytes()
{
    Slabs& s = slabs();
    std::lock_guard lock(s.mutex);
    return s.mapped;
}

} // namespace lv::cache
