// Temporary + fsync + no-replace rename, with errno turned into Error values naming the target.
#include "io/AtomicFile.h"

#include "io/WritableFile.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <utility>

namespace lv::io {

using core::ErrorCode;

AtomicFile::~AtomicFile()
{
    if (m_file) std::fclose(m_file); // m_temp's destructor then removes the file unless committed
}

core::Error AtomicFile::failure(const std::string& what) const
{
    return core::makeError(writeFailureCode(errno), what + ": " + std::strerror(errno), m_target);
}

core::Status AtomicFile::open(const std::string& target)
{
    m_target = target;
    auto temp = Temporary::create(target, Temporary::Kind::File);
    if (!temp) return temp.error();
    m_temp = std::move(*temp);
    const int fd = ::dup(m_temp.fd()); // the FILE gets its own descriptor; m_temp's keeps the lock
    m_file = fd >= 0 ? ::fdopen(fd, "wb") : nullptr;
    if (!m_file) {
        if (fd >= 0) ::close(fd);
        return failure("cannot open the temporary output");
    }
    return {};
}

core::Status AtomicFile::write(std::string_view bytes)
{
    if (!m_file) return core::makeError(ErrorCode::WriteFailed, "output is not open", m_target);
    if (std::fwrite(bytes.data(), 1, bytes.size(), m_file) != bytes.size()) return failure("cannot write the output");
    m_written += bytes.size();
    if (m_written - m_writebackFrom >= kWritebackBytes) startWriteback();
    return {};
}

// Starts the disk writes of what is written so far without waiting for them, so that the sync at the end waits
// for the last few MiB instead of the whole file (and dirty pages do not pile up in memory).
void AtomicFile::startWriteback()
{
    if (std::fflush(m_file) != 0) return; // the error shows again at finish()
#ifdef __linux__
    ::sync_file_range(::fileno(m_file), static_cast<off_t>(m_writebackFrom),
                      static_cast<off_t>(m_written - m_writebackFrom), SYNC_FILE_RANGE_WRITE);
#endif
    m_writebackFrom = m_written;
}

core::Status AtomicFile::finish()
{
    if (!m_file) return core::makeError(ErrorCode::WriteFailed, "output is not open", m_target);
    const bool flushed = std::fflush(m_file) == 0 && ::fsync(::fileno(m_file)) == 0;
    const bool closed = std::fclose(m_file) == 0;
    m_file = nullptr;
    if (!flushed || !closed) return failure("cannot finish writing the output");
    m_finished = true;
    return {};
}

core::Status AtomicFile::commit()
{
    if (!m_finished) LV_TRY(finish());
    LV_TRY(m_temp.publish(m_target));
    m_committed = true;
    return {};
}

} // namespace lv::io
