// One conversion job (a convert, a merge, a batch item): inputs, target, options; run with progress and
// cancellation within a memory budget, its result a value (outputs, counts, warnings, or the error).
#pragma once

#include "convert/Deidentify.h"
#include "convert/JobProgress.h"
#include "convert/MemoryBudget.h"
#include "convert/MergeTimeline.h"
#include "convert/ResampledRecording.h"
#include "convert/Selection.h"
#include "convert/Targets.h"
#include "core/TaskRunner.h"
#include "filter/FilterSpec.h"
#include "montage/Montage.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lv::convert {

struct ConvertJob {
    std::vector<std::string> inputs; // one recording; several are merged (`merge`: concatenated or stacked)
    std::string output;              // its extension picks the writer (Targets.h)
    std::string password;            // of encrypted inputs
    std::string snapshotDirectory;   // MEF metadata snapshots; empty: none
    SelectionRequest selection;      // channel names as the inputs give them
    std::string rename;              // "old=new,...": output names (RenamedRecording)
    MergeOptions merge;
    TargetOptions target;
    // Irregular channels on a grid (ResampledRecording): required for targets that need one (EDF, BDF, MEF)
    // when the selection holds irregular channels, applied to any target when given.
    ResampleOptions resample;
    // The selected channels filtered (filter::FilteredRecording; after any resampling and montage), said in the
    // output's provenance.
    filter::FilterSpec filter;
    // A montage's derivations written instead of the recorded channels (montage::loadMontage: a built-in's word or
    // a file), said in the output's provenance; the selection then picks derivations. "" : as recorded.
    std::string montage;
    std::optional<montage::Montage> montageGiven; // the montage itself (the viewer's saved ones): used before `montage`
    bool verifyCrc = true;
    bool skipDamaged = false;
    DeidentifyOptions deidentify; // resolved per job (its own pseudonym and shift unless given)
    // The user's own annotations (the viewer's sidecar beside the input, or in `annotationDirectory` when its
    // folder could not take it) go into the output with the recording's; a sidecar that does not read, or belongs
    // to another recording, fails the job. Merges carry the recordings' own only.
    bool userAnnotations = true;
    std::string annotationDirectory; // annotations::defaultDataDirectory() for the CLI and the viewer
};

// What one output channel received.
struct ChannelCount {
    std::string name;            // as written (after renaming)
    std::int64_t samples = 0;    // grid points in the selected range
    std::size_t annotations = 0; // annotations on this channel in the range
};

struct JobResult {
    bool ok = false;
    core::Error error;                 // when not ok
    std::vector<std::string> outputs;  // written: the parts, then their side files
    std::size_t parts = 0;             // outputs of the target's own format (EDF --gaps split: several)
    std::vector<std::string> warnings; // the open's first (openWarnings of them), then the reader's and the writer's
    std::size_t openWarnings = 0;      // how many of `warnings` the open gave (JobEvents::opened saw them)
    std::int64_t samples = 0;          // grid points written, over the selected channels
    std::size_t channels = 0;
    std::size_t annotations = 0;     // of the source in the selected range (whole-recording and channel ones)
    std::size_t userAnnotations = 0; // of those, the user's own (from `annotationFile`)
    std::string annotationFile;      // the sidecar they came from, or empty
    std::vector<ChannelCount> perChannel;
    std::uint64_t memoryBytes = 0; // the share of the memory budget it held while writing
    Deidentification deidentified; // what de-identification did (the pseudonym and shift chosen)
    double seconds = 0;
};

// What runs a job.
struct JobEnvironment {
    core::TaskRunner* runner = nullptr;        // decodes and encodes in parallel; nullptr: the calling thread
    const core::CancelToken* cancel = nullptr; // checked between chunks
    MemoryBudget* memory = nullptr;            // the queue's budget; nullptr: none
};

// Called on the job's thread (opened, right after the open, before the selection is resolved) or any thread (progress).
struct JobEvents {
    std::function<void(const core::RecordingInfo&)> opened; // inputs opened and checked, before any writing
    std::function<void()> writing; // its memory share taken (JobEnvironment::memory), the writing begins
    std::function<void(const JobProgress&)> progress;
};

// Opens the inputs, resolves the selection, waits for its share of the memory budget, writes the target. Never
// throws; a failure is in the result (the writer has left nothing behind).
JobResult runConvertJob(const ConvertJob& job, const JobEnvironment& environment, const JobEvents& events = {});

// The memory a job writing `selection` of `info` to `target` holds at most besides the open recording's
// description: the writer's chunk buffers and the readers' per-thread scratch (measured, see bench/README.md).
std::uint64_t estimateJobMemory(const TargetFormat& target, const core::RecordingInfo& info, const Selection& selection,
                                std::size_t threads);

} // namespace lv::convert
