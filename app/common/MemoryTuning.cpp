// glibc mallopt(M_ARENA_MAX); nothing on other C libraries.
#include "MemoryTuning.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace lv::app {

void limitAllocatorArenas()
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 2);
#endif
}

} // namespace lv::app
