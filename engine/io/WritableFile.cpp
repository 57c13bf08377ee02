// POSIX pwrite/pread/fdatasync with EINTR and short-write handling.
#include "io/WritableFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace lv::io {

using core::ErrorCode;
using core::makeError;

WritableFile::~WritableFile()
{
    if (m_fd >= 0) ::close(m_fd);
}

WritableFile::WritableFile(WritableFile&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1))
    , m_path(std::move(other.m_path))
{}

WritableFile& WritableFile::operator=(WritableFile&& other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0) ::close(m_fd);
        m_fd = std::exchange(other.m_fd, -1);
        m_path = std::move(other.m_path);
    }
    return *this;
}

core::ErrorCode writeFailureCode(int error)
{
    return error == ENOSPC || error == EFBIG || error == EDQUOT ? ErrorCode::DiskFull : ErrorCode::WriteFailed;
}

core::Error WritableFile::failure(const std::string& what, std::uint64_t offset) const
{
    return makeError(writeFailureCode(errno), what + ": " + std::strerror(errno), m_path,
                     static_cast<std::int64_t>(offset));
}

core::Result<WritableFile> WritableFile::create(const std::string& path)
{
    WritableFile f;
    f.m_path = path;
    f.m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (f.m_fd < 0)
        return makeError(writeFailureCode(errno), std::string("cannot create: ") + std::strerror(errno), path);
    return f;
}

core::Result<WritableFile> WritableFile::openExisting(const std::string& path)
{
    WritableFile f;
    f.m_path = path;
    f.m_fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (f.m_fd < 0)
        return makeError(writeFailureCode(errno), std::string("cannot open for writing: ") + std::strerror(errno),
                         path);
    return f;
}

core::Status WritableFile::writeAt(std::uint64_t offset, std::span<const std::uint8_t> bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::pwrite(m_fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = ENOSPC;
            return failure("cannot write", offset + done);
        }
        done += static_cast<std::size_t>(n);
    }
    return {};
}

core::Status WritableFile::readAt(std::uint64_t offset, std::span<std::uint8_t> out) const
{
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::pread(m_fd, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            return makeError(ErrorCode::Io, std::string("cannot read: ") + std::strerror(errno), m_path,
                             static_cast<std::int64_t>(offset + done));
        if (n == 0)
            return makeError(ErrorCode::Truncated, "file ends early", m_path, static_cast<std::int64_t>(offset + done));
        done += static_cast<std::size_t>(n);
    }
    return {};
}

core::Status WritableFile::sync()
{
    if (::fdatasync(m_fd) != 0) return failure("cannot sync to disk", 0);
    return {};
}

core::Status WritableFile::truncate(std::uint64_t size)
{
    if (::ftruncate(m_fd, static_cast<off_t>(size)) != 0) return failure("cannot truncate", size);
    return {};
}

core::Result<std::uint64_t> WritableFile::size() const
{
    struct stat st {};
    if (::fstat(m_fd, &st) != 0) return failure("cannot stat", 0);
    return static_cast<std::uint64_t>(st.st_size);
}

core::Status WritableFile::close()
{
    const int fd = std::exchange(m_fd, -1);
    if (fd >= 0 && ::close(fd) != 0) return failure("cannot close", 0);
    return {};
}

core::Status syncDirectory(const std::string& dir)
{
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return makeError(ErrorCode::WriteFailed, std::string("cannot open the directory: ") + std::strerror(errno),
                         dir);
    const int rc = ::fsync(fd);
    const int saved = errno;
    ::close(fd);
    if (rc != 0)
        return makeError(writeFailureCode(saved), std::string("cannot sync the directory: ") + std::strerror(saved),
                         dir);
    return {};
}

core::Status replaceFile(const std::string& path, std::span<const std::uint8_t> bytes, bool durable)
{
    const std::string temp = path + ".tmp-" + std::to_string(::getpid());
    ::unlink(temp.c_str());
    auto file = WritableFile::create(temp);
    if (!file) return file.error();
    core::Status written = file->writeAt(0, bytes);
    if (written && durable) written = file->sync();
    if (written) written = file->close();
    if (written && ::rename(temp.c_str(), path.c_str()) != 0)
        written =
            makeError(ErrorCode::WriteFailed, std::string("cannot move into place: ") + std::strerror(errno), path);
    if (!written) {
        ::unlink(temp.c_str());
        return written;
    }
    if (durable) return syncDirectory(std::filesystem::path(path).parent_path().string());
    return {};
}

} // namespace lv::io
