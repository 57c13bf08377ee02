// Exclusive creation + flock for temporaries, lock probing for dead ones, renameat2/link for no-replace moves.
#include "io/Temporary.h"

#include "io/WritableFile.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

namespace lv::io {

using core::ErrorCode;
using core::makeError;
namespace fs = std::filesystem;

namespace {

std::atomic<unsigned> g_counter{0};

bool lockFd(int fd, int how)
{
    while (::flock(fd, how) != 0)
        if (errno != EINTR) return false;
    return true;
}

// True when `path` still names the object open as `fd` (a dead-temporary sweep may have removed it between our
// creation and our lock).
bool sameObject(int fd, const std::string& path)
{
    struct stat a {
    }, b{};
    return ::fstat(fd, &a) == 0 && ::lstat(path.c_str(), &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// "<digits>-<digits>": the part after ".tmp-" of the names Temporary makes (and only those).
bool isTemporarySuffix(const std::string& s)
{
    const auto dash = s.find('-');
    const auto digits = [](const std::string& t) {
        return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
    };
    return dash != std::string::npos && digits(s.substr(0, dash)) && digits(s.substr(dash + 1));
}

void removeObject(const std::string& path, bool directory)
{
    std::error_code ec;
    if (directory)
        fs::remove_all(path, ec);
    else
        ::unlink(path.c_str());
}

core::Error exists(const std::string& to)
{
    return makeError(ErrorCode::WriteFailed, "the output already exists; choose a new name", to);
}

core::Error cannotMove(const std::string& to, int error)
{
    return makeError(writeFailureCode(error),
                     std::string("cannot move the finished output into place: ") + std::strerror(error), to);
}

bool unsupported(int error) { return error == EINVAL || error == ENOSYS || error == ENOTSUP || error == EOPNOTSUPP; }

// Check, then rename: not atomic; only where the file system offers neither of the atomic routes.
core::Status checkThenRename(const std::string& from, const std::string& to)
{
    struct stat st {};
    if (::lstat(to.c_str(), &st) == 0) return exists(to);
    if (::rename(from.c_str(), to.c_str()) != 0)
        return errno == EEXIST || errno == ENOTEMPTY ? exists(to) : cannotMove(to, errno);
    return {};
}

// link() fails when `to` exists, so it is the no-replace step; 0 or the errno.
int linkThenUnlink(const std::string& from, const std::string& to)
{
    if (::link(from.c_str(), to.c_str()) != 0) return errno;
    ::unlink(from.c_str());
    return 0;
}

} // namespace

Temporary::~Temporary() { drop(); }

Temporary::Temporary(Temporary&& other) noexcept
    : m_path(std::exchange(other.m_path, {}))
    , m_fd(std::exchange(other.m_fd, -1))
    , m_kind(other.m_kind)
{}

Temporary& Temporary::operator=(Temporary&& other) noexcept
{
    if (this != &other) {
        drop();
        m_path = std::exchange(other.m_path, {});
        m_fd = std::exchange(other.m_fd, -1);
        m_kind = other.m_kind;
    }
    return *this;
}

core::Result<Temporary> Temporary::create(const std::string& target, Kind kind)
{
    removeDeadTemporaries(target);
    const bool directory = kind == Kind::Directory;
    for (int attempt = 0; attempt < 1000; ++attempt) {
        Temporary t;
        t.m_kind = kind;
        const std::string name =
            target + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(g_counter.fetch_add(1));
        if (directory) {
            if (::mkdir(name.c_str(), 0777) != 0) {
                if (errno == EEXIST) continue;
                return makeError(
                    writeFailureCode(errno),
                    std::string("cannot create a temporary folder beside the output: ") + std::strerror(errno), target);
            }
            t.m_path = name;
            t.m_fd = ::open(name.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        } else {
            t.m_fd = ::open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (t.m_fd < 0 && errno == EEXIST) continue;
            if (t.m_fd >= 0) t.m_path = name;
        }
        if (t.m_fd < 0)
            return makeError(writeFailureCode(errno),
                             std::string(directory ? "cannot create a temporary folder beside the output: "
                                                   : "cannot create a temporary file beside the output: ") +
                                 std::strerror(errno),
                             target);
        if (!lockFd(t.m_fd, LOCK_EX))
            return makeError(ErrorCode::WriteFailed,
                             std::string("cannot lock the temporary output: ") + std::strerror(errno), target);
        if (!sameObject(t.m_fd, name)) { // removed by another run's sweep before we held the lock
            ::close(std::exchange(t.m_fd, -1));
            t.m_path.clear();
            continue;
        }
        return t;
    }
    return makeError(ErrorCode::WriteFailed, "cannot find a free temporary name beside the output", target);
}

core::Status Temporary::publish(const std::string& target)
{
    LV_TRY(renameNoReplace(m_path, target));
    m_path.clear();
    if (m_fd >= 0) ::close(std::exchange(m_fd, -1));
    return {};
}

void Temporary::drop()
{
    if (!m_path.empty()) removeObject(m_path, m_kind == Kind::Directory);
    m_path.clear();
    if (m_fd >= 0) ::close(std::exchange(m_fd, -1));
}

void removeDeadTemporaries(const std::string& target)
{
    const fs::path t(target);
    const fs::path parent = t.parent_path().empty() ? fs::path(".") : t.parent_path();
    const std::string prefix = t.filename().string() + ".tmp-";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(parent, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
            !isTemporarySuffix(name.substr(prefix.size())))
            continue;
        const std::string path = entry.path().string();
        const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0) continue; // another user's, or gone
        struct stat st {};
        const bool kind = ::fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
        if (kind && ::flock(fd, LOCK_EX | LOCK_NB) == 0 && sameObject(fd, path))
            removeObject(path, S_ISDIR(st.st_mode));
        ::close(fd);
    }
}

core::Status linkNoReplace(const std::string& from, const std::string& to)
{
    const int error = linkThenUnlink(from, to);
    if (error == 0) return {};
    return error == EEXIST ? exists(to) : cannotMove(to, error);
}

core::Status renameNoReplace(const std::string& from, const std::string& to)
{
    int rc = -1;
#if defined(__linux__) && defined(SYS_renameat2)
    rc = static_cast<int>(::syscall(SYS_renameat2, AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE));
#elif defined(__APPLE__) && defined(RENAME_EXCL)
    rc = ::renamex_np(from.c_str(), to.c_str(), RENAME_EXCL);
#else
    errno = ENOSYS;
#endif
    if (rc == 0) return {};
    if (errno == EEXIST) return exists(to);
    if (!unsupported(errno)) return cannotMove(to, errno);
    struct stat st {};
    if (::lstat(from.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        const int error = linkThenUnlink(from, to);
        if (error == 0) return {};
        if (error == EEXIST) return exists(to);
        if (error != EPERM && !unsupported(error)) return cannotMove(to, error); // EPERM: no hard links here
    }
    return checkThenRename(from, to);
}

} // namespace lv::io
