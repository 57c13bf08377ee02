// FileSystem on POSIX: stat, readdir, renameat2/renamex_np, fsync of a folder, flock probing.
#include "io/FileSystem.h"

#include "io/NativeFile.h"
#include "io/SystemErrorPosix.h"

#include <dirent.h>
#include <fcntl.h>
#include <memory>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif
#if defined(__APPLE__)
#include <stdio.h>
#endif

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

namespace lv::io {

namespace {

#if defined(__APPLE__)
std::int64_t nanoseconds(const timespec& t) { return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; }
std::int64_t modified(const struct stat& st) { return nanoseconds(st.st_mtimespec); }
std::int64_t changed(const struct stat& st) { return nanoseconds(st.st_ctimespec); }
#else
std::int64_t nanoseconds(const timespec& t) { return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; }
std::int64_t modified(const struct stat& st) { return nanoseconds(st.st_mtim); }
std::int64_t changed(const struct stat& st) { return nanoseconds(st.st_ctim); }
#endif

FileStatus::Kind kindOf(mode_t mode)
{
    using K = FileStatus::Kind;
    if (S_ISREG(mode)) return K::Regular;
    if (S_ISDIR(mode)) return K::Directory;
    if (S_ISFIFO(mode)) return K::Fifo;
    if (S_ISCHR(mode)) return K::CharacterDevice;
    if (S_ISBLK(mode)) return K::BlockDevice;
    if (S_ISSOCK(mode)) return K::Socket;
    return K::Other;
}

struct CloseDir {
    void operator()(DIR* d) const { ::closedir(d); }
};

} // namespace

SystemError statPath(const std::filesystem::path& path, FileStatus& status)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return lastPosixError();
    status.kind = kindOf(st.st_mode);
    status.size = status.kind == FileStatus::Kind::Directory ? 0 : static_cast<std::uint64_t>(st.st_size);
    status.mtimeNs = modified(st);
    status.ctimeNs = changed(st);
    status.fileId = static_cast<std::uint64_t>(st.st_ino);
    return {};
}

SystemError forEachEntry(const std::filesystem::path& folder,
                         const std::function<bool(std::string_view name, bool isDirectory)>& visit)
{
    std::unique_ptr<DIR, CloseDir> dir(::opendir(folder.c_str()));
    if (!dir) return lastPosixError();
    errno = 0;
    while (const dirent* e = ::readdir(dir.get())) {
        const std::string_view name(e->d_name);
        if (name == "." || name == "..") continue;
        bool isDirectory = e->d_type == DT_DIR;
        if (e->d_type == DT_UNKNOWN || e->d_type == DT_LNK) {
            struct stat st {};
            isDirectory = ::fstatat(::dirfd(dir.get()), e->d_name, &st, 0) == 0 && S_ISDIR(st.st_mode);
        }
        if (!visit(name, isDirectory)) return {};
        errno = 0;
    }
    return posixError(errno);
}

SystemError moveNoReplace(const std::filesystem::path& from, const std::filesystem::path& to)
{
#if defined(__linux__) && defined(SYS_renameat2)
    if (::syscall(SYS_renameat2, AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return {};
    return lastPosixError();
#elif defined(__APPLE__) && defined(RENAME_EXCL)
    if (::renamex_np(from.c_str(), to.c_str(), RENAME_EXCL) == 0) return {};
    return lastPosixError();
#else
    (void)from, (void)to;
    return posixError(ENOSYS);
#endif
}

SystemError moveReplacing(const std::filesystem::path& from, const std::filesystem::path& to)
{
    if (::rename(from.c_str(), to.c_str()) != 0) return lastPosixError();
    return {};
}

SystemError syncFolder(const std::filesystem::path& folder)
{
    NativeFile dir;
    if (SystemError e = dir.open(folder, NativeFile::Mode::Folder); !e.ok()) return e;
    if (SystemError e = dir.syncAll(); !e.ok()) return e;
    return dir.close();
}

SystemError createFolder(const std::filesystem::path& folder)
{
    if (::mkdir(folder.c_str(), 0777) != 0) return lastPosixError();
    return {};
}

void removeIfAbandoned(const std::filesystem::path& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd < 0) return; // another user's, or gone
    struct stat st {};
    const bool kind = ::fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
    struct stat now {};
    const bool same = ::lstat(path.c_str(), &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino;
    if (kind && ::flock(fd, LOCK_EX | LOCK_NB) == 0 && same) {
        std::error_code ec;
        if (S_ISDIR(st.st_mode))
            std::filesystem::remove_all(path, ec);
        else
            ::unlink(path.c_str());
    }
    ::close(fd);
}

std::uint64_t processId() { return static_cast<std::uint64_t>(::getpid()); }

} // namespace lv::io
