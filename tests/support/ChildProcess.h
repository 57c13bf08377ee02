// Test helper: run a program as a child process, capture its output, kill it with SIGKILL after a delay, or
// limit the size of the files it may write (RLIMIT_FSIZE).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lv::test {

struct ChildResult {
    std::string output;                   // stdout and stderr, merged
    int exitStatus = -1;                  // when it exited
    bool killed = false;                  // when our SIGKILL ended it
    std::chrono::milliseconds elapsed{0}; // from start to exit (runChildWithin)
};

// A signal to send the child once it has run for `after`.
struct ChildSignal {
    std::chrono::milliseconds after{0};
    int signal = 15; // SIGTERM
};

// Runs argv[0] with arguments argv[1...]. With `killAfter`, sends SIGKILL after that delay if it still runs.
// With `fileSizeLimit` > 0, the child may not grow a file beyond that many bytes (writes fail with EFBIG).
ChildResult runChild(const std::vector<std::string>& argv,
                     std::optional<std::chrono::microseconds> killAfter = std::nullopt,
                     std::uint64_t fileSizeLimit = 0);

// Runs argv like runChild, sends `signal` when given, and SIGKILLs the child once it has run for `timeout`, so
// that a hang fails a test (killed is then true) instead of blocking the test run.
ChildResult runChildWithin(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                           std::optional<ChildSignal> signal = std::nullopt);
// Starts argv like runChild and sends `signal` (SIGKILL by default) as soon as `ready()` (polled every 5 ms) is
// true, or when it exits by itself; `ready` sees the world while the child still runs (e.g. its temporary file
// has grown). Then waits for it to end.
ChildResult runChildKilledWhen(const std::vector<std::string>& argv, const std::function<bool()>& ready,
                               int signal = 9);

} // namespace lv::test
