// A byte source that answers small reads from a few large aligned windows of another: a parser that walks
// thousands of small blocks (an MDF 4 block tree) makes a few big reads instead of one system call per block.
#pragma once

#include "io/ByteSource.h"

namespace lv::io {

// Reads of at most `window` / 4 bytes are served from cached windows of `window` bytes aligned to `window` (the
// last `windows` used are kept); larger reads go to `inner` directly. Safe to use from several threads.
ByteSourcePtr windowedSource(ByteSourcePtr inner, std::uint64_t window = std::uint64_t{256} << 10,
                             std::size_t windows = 32);

} // namespace lv::io
