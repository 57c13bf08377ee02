// Process-wide allocator settings for programs that keep a block cache.
#pragma once

namespace lv::app {

// glibc gives each thread that allocates its own arena; decode threads that allocate blocks the cache later
// frees leave those arenas holding freed memory, about 35 MB above the cache budget on a 64 MB soak (and 270 MB
// on 512 MB). Two arenas keep peak RSS within budget + 64 MB. No effect elsewhere.
void limitAllocatorArenas();

} // namespace lv::app
