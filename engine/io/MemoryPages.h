// Memory straight from the operating system in whole pages, for the block cache's slabs: reserved and committed
// at once, given back to the system while mapped, released. POSIX mmap in MemoryPagesPosix.cpp, VirtualAlloc in
// MemoryPagesWin32.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lv::io {

std::size_t pageSize();
// The machine's physical memory in bytes, 0 when unknown.
std::uint64_t physicalMemoryBytes();

// `bytes` (a multiple of pageSize()) of zeroed, readable and writable memory; nullptr when refused.
void* allocatePages(std::size_t bytes);
// Returns memory of allocatePages (the whole of it).
void freePages(void* at, std::size_t bytes);
// The pages of [at, at + bytes) leave the resident set now; they stay usable (zeroed on next touch on POSIX,
// recommitted on Windows).
void discardPages(void* at, std::size_t bytes);
// Asks for [at, at + bytes) of allocatePages to be backed by huge pages where the system offers them (Linux
// transparent huge pages); a hint, which may do nothing.
void adviseHugePages(void* at, std::size_t bytes);

} // namespace lv::io
