// Jobs the caller may run a second time when it runs out, so a helper taken off its core does not hold it up.
#pragma once

#include "core/TaskRunner.h"
#include "core/WorkGate.h"

#include <cstddef>
#include <functional>

namespace lv::core {

struct SpeculativeBatch;

// A run's right to write its job's result where the caller reads it.
class JobCommit {
public:
    // True for the first run of the job to ask, while the caller still waits for it: write the result now. False:
    // another run wrote it, or the batch was cancelled: touch nothing of the caller's.
    bool claim();
    bool claimed() const { return m_claimed; }

private:
    friend struct SpeculativeBatch;
    JobCommit(SpeculativeBatch& batch, std::size_t job) : m_batch(batch), m_job(job) {}
    SpeculativeBatch& m_batch;
    std::size_t m_job;
    bool m_claimed = false;
};

using SpeculativeJob = std::function<void(std::size_t, JobCommit&)>;

// Runs job(j, commit) for j in [0, count) on the caller and runner's other threads. When the caller finds no job left
// it runs once more each job another thread has started and not finished, and the first run to claim commits: when
// the machine is busy and a helper is taken off its core for another process's turn (milliseconds), the caller
// finishes its job instead of waiting. A job runs at most twice. Runs that lose go on after this returns, so job may
// touch, before it claims, only what outlives the call: what it owns, and the gate's owner (each helper holds a pass
// from gate while it runs; the owner closes the gate when it goes). The caller checks cancel before each job; once
// cancelled, jobs not yet claimed never commit. True when every job committed. Rethrows the first exception of a run
// that claimed (a run that throws before claiming claims, so its job fails).
bool runSpeculative(TaskRunner* runner, const WorkGate& gate, std::size_t count, SpeculativeJob job,
                    const CancelToken* cancel = nullptr);

} // namespace lv::core
