// One conversion job (a convert, a merge, a batch item): inputs, target, options; run with progress and
// cancellation, its result a value (outputs, counts, warnings, or the error).
#pragma once

#include "convert/Selection.h"
#include "convert/Targets.h"
#include "core/TaskRunner.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lv::convert {

struct ConvertJob {
    std::vector<std::string> inputs; // one recording; several are merged (concat)
    std::string output;              // its extension picks the writer (Targets.h)
    std::string password;            // of encrypted inputs
    std::string snapshotDirectory;   // MEF metadata snapshots; empty: none
    SelectionRequest selection;      // channel names as the inputs give them
    std::string rename;              // "old=new,...": output names (RenamedRecording)
    TargetOptions target;
    bool verifyCrc = true;
    bool skipDamaged = false;
};

struct JobResult {
    bool ok = false;
    core::Error error;                 // when not ok
    std::vector<std::string> outputs;  // written
    std::vector<std::string> warnings; // the reader's and the writer's
    std::int64_t samples = 0;          // grid points written, over the selected channels
    std::size_t channels = 0;
    std::size_t annotations = 0; // of the source in the selected range
    double seconds = 0;
};

// Progress of a job: work units done of total (as ReadControl reports them).
using JobProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// Opens the inputs, resolves the selection, writes the target. Never throws; a failure is in the result (the
// writer has left nothing behind). `runner` decodes and encodes in parallel (nullptr: on the calling thread).
JobResult runConvertJob(const ConvertJob& job, core::TaskRunner* runner, const core::CancelToken* cancel,
                        const JobProgress& progress = {});

} // namespace lv::convert
