// The floor of every reader's benchmark: a file's bytes read with pread in 1 MiB chunks into one buffer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lv::bench {

class PlainRead {
public:
    // Bytes [from, end of file) of `path`, opened now (the program aborts when it cannot be).
    explicit PlainRead(const std::string& path, std::uint64_t from = 0);
    ~PlainRead();
    PlainRead(const PlainRead&) = delete;
    PlainRead& operator=(const PlainRead&) = delete;

    // Reads them once; returns the bytes read.
    std::uint64_t once();

private:
    int m_fd = -1;
    std::uint64_t m_from = 0, m_size = 0;
    std::vector<char> m_buffer;
};

} // namespace lv::bench
