// fork/exec with a pipe, an optional timed or conditional SIGKILL and an optional file size limit.
#include "support/ChildProcess.h"

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace lv::test {

namespace {

[[noreturn]] void execChild(const std::vector<std::string>& argv, int out, std::uint64_t fileSizeLimit)
{
    ::dup2(out, 1);
    ::dup2(out, 2);
    if (fileSizeLimit > 0) {
        const rlimit limit{static_cast<rlim_t>(fileSizeLimit), static_cast<rlim_t>(fileSizeLimit)};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        std::signal(SIGXFSZ, SIG_IGN); // the write fails with EFBIG instead of killing the process
    }
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
}

} // namespace

namespace {

// Reads the child's merged output to its end, waits for it, and fills in how it ended.
ChildResult collect(pid_t pid, int out)
{
    ChildResult result;
    char buffer[4096];
    for (ssize_t n; (n = ::read(out, buffer, sizeof buffer)) != 0;) {
        if (n < 0) break;
        result.output.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(out);
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    if (WIFEXITED(status)) result.exitStatus = WEXITSTATUS(status);
    return result;
}

} // namespace

ChildResult runChildKilledWhen(const std::vector<std::string>& argv, const std::function<bool()>& ready, int signal)
{
    int fds[2];
    if (::pipe(fds) != 0) return {};
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        execChild(argv, fds[1], 0);
    }
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        return {};
    }
    const auto running = [pid] {
        siginfo_t info{};
        return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0;
    };
    while (running() && !ready()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(pid, signal);
    return collect(pid, fds[0]);
}

ChildResult runChild(const std::vector<std::string>& argv, std::optional<std::chrono::microseconds> killAfter,
                     std::uint64_t fileSizeLimit)
{
    ChildResult result;
    int fds[2];
    if (::pipe(fds) != 0) return result;
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        execChild(argv, fds[1], fileSizeLimit);
    }
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        return result;
    }
    if (killAfter) {
        std::this_thread::sleep_for(*killAfter);
        ::kill(pid, SIGKILL);
    }
    return collect(pid, fds[0]);
}

ChildResult runChildWithin(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                           std::optional<ChildSignal> signal)
{
    ChildResult result;
    int fds[2];
    if (::pipe(fds) != 0) return result;
    const auto started = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        execChild(argv, fds[1], 0);
    }
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        return result;
    }
    std::mutex mutex;
    std::condition_variable exited;
    bool done = false, killed = false;
    std::thread watchdog([&] {
        std::unique_lock lock(mutex);
        if (signal && !exited.wait_until(lock, started + signal->after, [&] { return done; }))
            ::kill(pid, signal->signal);
        if (!exited.wait_until(lock, started + timeout, [&] { return done; })) {
            ::kill(pid, SIGKILL);
            killed = true;
        }
    });
    char buffer[4096];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) != 0;) {
        if (n < 0) break;
        result.output.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    siginfo_t info{};
    ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT); // not reaped: the pid stays ours
    result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    {
        std::lock_guard lock(mutex);
        done = true;
    }
    exited.notify_all();
    watchdog.join();
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.killed = killed;
    if (WIFEXITED(status)) result.exitStatus = WEXITSTATUS(status);
    return result;
}

} // namespace lv::test
