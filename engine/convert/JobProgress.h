// A job's progress as every front end shows it (fraction, samples per second, time left), and the meter that
// turns a writer's (done, total) reports into it.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

namespace lv::convert {

struct JobProgress {
    double fraction = 0.0;         // of the job's work, [0, 1]
    std::int64_t samplesDone = 0;  // grid points of the selected channels, estimated from the fraction
    std::int64_t samplesTotal = 0; // grid points of the selected channels in the range
    double seconds = 0.0;          // since the writing began
    double samplesPerSecond = 0.0; // samplesDone / seconds (0 until some work is done)
    double etaSeconds = -1.0;      // time left at the average rate so far; -1 while unknown
};

// Thread-safe: writers report from worker threads. A report never moves the fraction backwards.
class ProgressMeter {
public:
    explicit ProgressMeter(std::int64_t samplesTotal);
    // The progress after the writer reported `done` of `total` units (records, rows, samples: any unit).
    JobProgress update(std::uint64_t done, std::uint64_t total);
    // The progress at the end (fraction 1).
    JobProgress finished();

private:
    JobProgress at(double fraction);

    std::mutex m_mutex;
    std::chrono::steady_clock::time_point m_started;
    std::int64_t m_total = 0;
    double m_fraction = 0.0;
};

} // namespace lv::convert
