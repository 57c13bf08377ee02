// Corruption corpus: runs one command as a child process with a wall-time and memory limit, stdout and
// stderr captured apart, and reports how it ended (exit status or signal, wall time, peak RSS).
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace lv::corpus {

struct ChildLimits {
    std::chrono::milliseconds wall{5000}; // SIGKILL to the child's process group after this
    std::size_t addressSpaceBytes = 0;    // RLIMIT_AS when > 0 (not usable under ASan)
};

struct ChildOutcome {
    int exitStatus = -1; // when it exited
    int signal = 0;      // when a signal ended it
    bool timedOut = false;
    double seconds = 0;
    long maxRssKb = 0;
    std::string out;
    std::string err;
};

// Runs argv (argv[0] a path) in `cwd` with `env` added to the environment.
ChildOutcome runLimited(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                        const std::vector<std::string>& env, const ChildLimits& limits);

} // namespace lv::corpus
