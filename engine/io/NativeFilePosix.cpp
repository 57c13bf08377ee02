// NativeFile on POSIX: open/pread/pwrite/fdatasync/flock/posix_fadvise, with EINTR and short transfers handled.
#include "io/NativeFile.h"

#include "io/SystemErrorPosix.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace lv::io {

NativeFile::~NativeFile()
{
    if (m_fd >= 0) ::close(m_fd);
}

NativeFile::NativeFile(NativeFile&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}

NativeFile& NativeFile::operator=(NativeFile&& other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0) ::close(m_fd);
        m_fd = std::exchange(other.m_fd, -1);
    }
    return *this;
}

SystemError NativeFile::open(const std::filesystem::path& path, Mode mode)
{
    int flags = O_CLOEXEC;
    switch (mode) {
    case Mode::Read:
        flags |= O_RDONLY;
        break;
    case Mode::ReadWrite:
        flags |= O_RDWR;
        break;
    case Mode::CreateNew:
        flags |= O_RDWR | O_CREAT | O_EXCL;
        break;
    case Mode::Folder:
        flags |= O_RDONLY | O_DIRECTORY;
        break;
    }
    const int fd = ::open(path.c_str(), flags, 0666);
    if (fd < 0) return lastPosixError();
    *this = NativeFile();
    m_fd = fd;
    return {};
}

bool NativeFile::isOpen() const { return m_fd >= 0; }

bool NativeFile::isRegularFile() const
{
    struct stat st {};
    return ::fstat(m_fd, &st) == 0 && S_ISREG(st.st_mode);
}

SystemError NativeFile::duplicate(NativeFile& copy) const
{
    const int fd = ::fcntl(m_fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0) return lastPosixError();
    copy = NativeFile();
    copy.m_fd = fd;
    return {};
}

SystemError NativeFile::readAt(std::uint64_t offset, std::span<std::uint8_t> out, std::size_t& done) const
{
    done = 0;
    while (done < out.size()) {
        const ssize_t n = ::pread(m_fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return lastPosixError();
        if (n == 0) break;
        done += static_cast<std::size_t>(n);
    }
    return {};
}

SystemError NativeFile::writeAt(std::uint64_t offset, std::span<const std::uint8_t> bytes, std::size_t& done)
{
    done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::pwrite(m_fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return lastPosixError();
        if (n == 0) return posixError(ENOSPC);
        done += static_cast<std::size_t>(n);
    }
    return {};
}

SystemError NativeFile::size(std::uint64_t& bytes) const
{
    struct stat st {};
    if (::fstat(m_fd, &st) != 0) return lastPosixError();
    bytes = static_cast<std::uint64_t>(st.st_size);
    return {};
}

SystemError NativeFile::truncate(std::uint64_t size)
{
    if (::ftruncate(m_fd, static_cast<off_t>(size)) != 0) return lastPosixError();
    return {};
}

SystemError NativeFile::syncData()
{
#if defined(__APPLE__)
    const int rc = ::fcntl(m_fd, F_FULLFSYNC);
#elif defined(_POSIX_SYNCHRONIZED_IO) && _POSIX_SYNCHRONIZED_IO > 0
    const int rc = ::fdatasync(m_fd);
#else
    const int rc = ::fsync(m_fd);
#endif
    return rc == 0 ? SystemError{} : lastPosixError();
}

SystemError NativeFile::syncAll()
{
#if defined(__APPLE__)
    const int rc = ::fcntl(m_fd, F_FULLFSYNC);
#else
    const int rc = ::fsync(m_fd);
#endif
    return rc == 0 ? SystemError{} : lastPosixError();
}

SystemError NativeFile::close()
{
    const int fd = std::exchange(m_fd, -1);
    if (fd >= 0 && ::close(fd) != 0) return lastPosixError();
    return {};
}

bool NativeFile::lockExclusive(bool wait)
{
    while (::flock(m_fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0)
        if (errno != EINTR) return false;
    return true;
}

bool NativeFile::isAt(const std::filesystem::path& path) const
{
    struct stat a {
    }, b{};
    return ::fstat(m_fd, &a) == 0 && ::lstat(path.c_str(), &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

void NativeFile::willNeed(std::uint64_t offset, std::uint64_t size) const
{
#ifdef POSIX_FADV_WILLNEED
    ::posix_fadvise(m_fd, static_cast<off_t>(offset), static_cast<off_t>(size), POSIX_FADV_WILLNEED);
#else
    (void)offset, (void)size;
#endif
}

void NativeFile::startWriteBack(std::uint64_t offset, std::uint64_t size)
{
#ifdef __linux__
    ::sync_file_range(m_fd, static_cast<off_t>(offset), static_cast<off_t>(size), SYNC_FILE_RANGE_WRITE);
#else
    (void)offset, (void)size;
#endif
}

bool NativeFile::setDirect(bool on)
{
#ifdef O_DIRECT
    const int flags = ::fcntl(m_fd, F_GETFL);
    if (flags < 0) return false;
    return ::fcntl(m_fd, F_SETFL, on ? flags | O_DIRECT : flags & ~O_DIRECT) == 0 && on;
#elif defined(__APPLE__)
    return ::fcntl(m_fd, F_NOCACHE, on ? 1 : 0) == 0 && on;
#else
    (void)on;
    return false;
#endif
}

} // namespace lv::io
