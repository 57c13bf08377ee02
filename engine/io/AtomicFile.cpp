// Temporary + fsync + no-replace rename, with errno turned into Error values naming the target; pieces written
// with O_DIRECT where the file system takes it (the last one padded to a block, then the file cut to its size).
#include "io/AtomicFile.h"

#include "io/WritableFile.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <utility>

namespace lv::io {

using core::ErrorCode;

void AtomicFile::FreeAligned::operator()(char* p) const { std::free(p); }

AtomicFile::~AtomicFile()
{
    if (m_fd >= 0) ::close(m_fd); // m_temp's destructor then removes the file unless committed
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
    m_fd = ::dup(m_temp.fd()); // our own descriptor; m_temp's keeps the lock
    if (m_fd < 0) return failure("cannot open the temporary output");
    m_piece.reset(static_cast<char*>(std::aligned_alloc(kAlign, kPieceBytes)));
    if (!m_piece) return core::makeError(ErrorCode::WriteFailed, "out of memory for the output's buffer", m_target);
#ifdef O_DIRECT
    const int flags = ::fcntl(m_fd, F_GETFL);
    m_direct = flags >= 0 && ::fcntl(m_fd, F_SETFL, flags | O_DIRECT) == 0;
#endif
    return {};
}

// Back to the page cache (a file system that took the flag but refuses direct writes).
void AtomicFile::stopDirect()
{
#ifdef O_DIRECT
    const int flags = ::fcntl(m_fd, F_GETFL);
    if (flags >= 0) ::fcntl(m_fd, F_SETFL, flags & ~O_DIRECT);
#endif
    m_direct = false;
}

// Writes m_piece[0, m_filled) at m_written. Direct: whole blocks; the last piece is padded to a block (the file is
// cut to its size at finish). Buffered: as it is, and its disk writes are started.
core::Status AtomicFile::flushPiece(bool last)
{
    std::size_t length = m_filled;
    if (m_direct && length % kAlign != 0) {
        if (!last) return core::makeError(ErrorCode::WriteFailed, "unaligned piece", m_target); // not reached
        const std::size_t padded = (length + kAlign - 1) / kAlign * kAlign;
        std::memset(m_piece.get() + length, 0, padded - length);
        length = padded;
    }
    for (std::size_t done = 0; done < length;) {
        const ssize_t n = ::pwrite(m_fd, m_piece.get() + done, length - done, static_cast<off_t>(m_written + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EINVAL && m_direct && done == 0) { // direct writes refused here: buffered from now
            stopDirect();
            length = m_filled;
            continue;
        }
        if (n <= 0) return failure("cannot write the output");
        done += static_cast<std::size_t>(n);
    }
#ifdef __linux__
    if (!m_direct) // start the disk writes now, so that the sync at the end has little left to wait for
        ::sync_file_range(m_fd, static_cast<off_t>(m_written), static_cast<off_t>(m_filled), SYNC_FILE_RANGE_WRITE);
#endif
    m_written += m_filled;
    m_filled = 0;
    return {};
}

core::Status AtomicFile::write(std::string_view bytes)
{
    if (m_fd < 0 || m_finished) return core::makeError(ErrorCode::WriteFailed, "output is not open", m_target);
    while (!bytes.empty()) {
        const std::size_t n = std::min(bytes.size(), kPieceBytes - m_filled);
        std::memcpy(m_piece.get() + m_filled, bytes.data(), n);
        m_filled += n;
        bytes.remove_prefix(n);
        if (m_filled == kPieceBytes) LV_TRY(flushPiece(false));
    }
    return {};
}

core::Status AtomicFile::finish()
{
    if (m_fd < 0 || m_finished) return core::makeError(ErrorCode::WriteFailed, "output is not open", m_target);
    const std::uint64_t size = m_written + m_filled;
    core::Status flushed = flushPiece(true);
    if (flushed && ::ftruncate(m_fd, static_cast<off_t>(size)) != 0)
        flushed = failure("cannot finish writing the output");
    if (flushed && ::fsync(m_fd) != 0) flushed = failure("cannot finish writing the output");
    const bool closed = ::close(m_fd) == 0;
    m_fd = -1;
    m_piece.reset();
    if (!flushed) return flushed.error();
    if (!closed) return failure("cannot finish writing the output");
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
