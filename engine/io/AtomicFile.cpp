// mkstemp + fsync + rename, with errno turned into Error values naming the target.
#include "io/AtomicFile.h"

#include "io/WritableFile.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace lv::io {

using core::ErrorCode;

AtomicFile::~AtomicFile()
{
    if (m_file) std::fclose(m_file);
    if (!m_committed && !m_temp.empty()) ::unlink(m_temp.c_str());
}

core::Error AtomicFile::failure(const std::string& what) const
{
    return core::makeError(writeFailureCode(errno), what + ": " + std::strerror(errno), m_target);
}

core::Status AtomicFile::open(const std::string& target)
{
    m_target = target;
    std::vector<char> name(target.begin(), target.end());
    const std::string suffix = ".tmp-XXXXXX";
    name.insert(name.end(), suffix.begin(), suffix.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) return failure("cannot create a temporary file beside the output");
    m_temp = name.data();
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask); // mkstemp creates 0600; the output gets the usual permissions
    m_file = ::fdopen(fd, "wb");
    if (!m_file) {
        ::close(fd);
        return failure("cannot open the temporary output");
    }
    return {};
}

core::Status AtomicFile::write(std::string_view bytes)
{
    if (!m_file) return core::makeError(ErrorCode::WriteFailed, "output is not open", m_target);
    if (std::fwrite(bytes.data(), 1, bytes.size(), m_file) != bytes.size()) return failure("cannot write the output");
    return {};
}

core::Status AtomicFile::commit()
{
    if (!m_file) return core::makeError(ErrorCode::WriteFailed, "output is not open", m_target);
    const bool flushed = std::fflush(m_file) == 0 && ::fsync(::fileno(m_file)) == 0;
    const bool closed = std::fclose(m_file) == 0;
    m_file = nullptr;
    if (!flushed || !closed) return failure("cannot finish writing the output");
    if (::rename(m_temp.c_str(), m_target.c_str()) != 0) return failure("cannot move the finished output into place");
    m_committed = true;
    return {};
}

} // namespace lv::io
