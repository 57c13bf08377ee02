// MemoryPages on Win32: VirtualAlloc/VirtualFree, MEM_RESET for discarding, GlobalMemoryStatusEx.
#include "io/MemoryPages.h"

#include <windows.h>

namespace lv::io {

std::size_t pageSize()
{
    static const std::size_t page = [] {
        SYSTEM_INFO info{};
        ::GetSystemInfo(&info);
        return static_cast<std::size_t>(info.dwPageSize);
    }();
    return page;
}

std::uint64_t physicalMemoryBytes()
{
    MEMORYSTATUSEX status{};
    status.dwLength = sizeof status;
    return ::GlobalMemoryStatusEx(&status) ? status.ullTotalPhys : 0;
}

void* allocatePages(std::size_t bytes)
{
    return ::VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}

void freePages(void* at, std::size_t) { ::VirtualFree(at, 0, MEM_RELEASE); }

// Decommit then commit again: the pages leave the working set and come back zeroed, as after MADV_DONTNEED.
void adviseHugePages(void*, std::size_t) {} // large pages need a privilege users do not have

void discardPages(void* at, std::size_t bytes)
{
    ::VirtualFree(at, bytes, MEM_DECOMMIT);
    ::VirtualAlloc(at, bytes, MEM_COMMIT, PAGE_READWRITE);
}

} // namespace lv::io
