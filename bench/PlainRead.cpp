// PlainRead: pread in 1 MiB chunks (POSIX: the benchmarks run on Linux).
#include "PlainRead.h"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace lv::bench {

PlainRead::PlainRead(const std::string& path, std::uint64_t from)
    : m_fd(::open(path.c_str(), O_RDONLY))
    , m_from(from)
    , m_size(std::filesystem::file_size(path))
    , m_buffer(std::size_t{1} << 20)
{
    if (m_fd < 0) {
        std::fprintf(stderr, "cannot open %s\n", path.c_str());
        std::abort();
    }
}

PlainRead::~PlainRead() { ::close(m_fd); }

std::uint64_t PlainRead::once()
{
    std::uint64_t done = 0;
    for (std::uint64_t at = m_from; at < m_size; at += m_buffer.size()) {
        const ssize_t n = ::pread(m_fd, m_buffer.data(), m_buffer.size(), static_cast<off_t>(at));
        if (n > 0) done += static_cast<std::uint64_t>(n);
    }
    return done;
}

} // namespace lv::bench
