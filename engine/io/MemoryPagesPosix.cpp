// MemoryPages on POSIX: anonymous mmap, munmap, madvise(MADV_DONTNEED), sysconf.
#include "io/MemoryPages.h"

#include <sys/mman.h>
#include <unistd.h>

namespace lv::io {

std::size_t pageSize()
{
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return page;
}

std::uint64_t physicalMemoryBytes()
{
#if defined(_SC_PHYS_PAGES)
    const long pages = ::sysconf(_SC_PHYS_PAGES), size = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0) return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size);
#endif
    return 0;
}

void* allocatePages(std::size_t bytes)
{
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

void freePages(void* at, std::size_t bytes) { ::munmap(at, bytes); }

void discardPages(void* at, std::size_t bytes) { (void)::madvise(at, bytes, MADV_DONTNEED); }

void adviseHugePages([[maybe_unused]] void* at, [[maybe_unused]] std::size_t bytes)
{
#if defined(MADV_HUGEPAGE)
    (void)::madvise(at, bytes, MADV_HUGEPAGE);
#endif
}

} // namespace lv::io
