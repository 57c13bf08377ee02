// fork/exec in a new process group, output to files, waitpid polling against a deadline, wait4 for rusage.
#include "ChildRun.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <string_view>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace lv::corpus {

namespace {

std::string slurp(const std::filesystem::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Only async-signal-safe calls between fork and exec: the argument and environment arrays are built before.
[[noreturn]] void execChild(char* const* args, char* const* envp, const char* cwd, const ChildLimits& limits, int out,
                            int err)
{
    ::setpgid(0, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, 0);
    if (::chdir(cwd) != 0) ::_exit(126);
    if (limits.addressSpaceBytes > 0) {
        const rlimit as{static_cast<rlim_t>(limits.addressSpaceBytes), static_cast<rlim_t>(limits.addressSpaceBytes)};
        ::setrlimit(RLIMIT_AS, &as);
    }
    const rlimit noCore{0, 0};
    ::setrlimit(RLIMIT_CORE, &noCore);
    ::execve(args[0], args, envp);
    ::_exit(127);
}

} // namespace

ChildOutcome runLimited(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                        const std::vector<std::string>& env, const ChildLimits& limits)
{
    ChildOutcome r;
    const auto outFile = cwd / ".corpus-stdout";
    const auto errFile = cwd / ".corpus-stderr";
    const int out = ::open(outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const int err = ::open(errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::vector<char*> envp;
    for (char** e = environ; *e; ++e) {
        const std::string_view entry(*e);
        const auto named = [&](const std::string& x) {
            return entry.substr(0, entry.find('=')) == x.substr(0, x.find('='));
        };
        if (std::none_of(env.begin(), env.end(), named)) envp.push_back(*e);
    }
    for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid == 0) execChild(args.data(), envp.data(), cwd.c_str(), limits, out, err);
    ::close(out);
    ::close(err);
    if (pid < 0) return r;
    ::setpgid(pid, pid);
    int status = 0;
    rusage usage{};
    const auto deadline = start + limits.wall;
    auto pause = std::chrono::microseconds(200);
    for (;;) {
        const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
        if (done == pid) break;
        if (std::chrono::steady_clock::now() >= deadline) {
            ::kill(-pid, SIGKILL);
            ::kill(pid, SIGKILL);
            ::wait4(pid, &status, 0, &usage);
            r.timedOut = true;
            break;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(20000));
    }
    ::kill(-pid, SIGKILL); // anything the child left running in its group
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.maxRssKb = usage.ru_maxrss;
    if (WIFEXITED(status)) r.exitStatus = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
    r.out = slurp(outFile);
    r.err = slurp(errFile);
    std::filesystem::remove(outFile);
    std::filesystem::remove(errFile);
    return r;
}

} // namespace lv::corpus
