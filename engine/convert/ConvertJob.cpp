// Running one conversion job from its description.
#include "convert/ConvertJob.h"

#include "convert/MergedRecording.h"
#include "convert/RenamedRecording.h"
#include "formats/RecordingOpener.h"

#include <algorithm>

namespace lv::convert {

namespace {

core::Result<std::unique_ptr<core::Recording>> openInputs(const ConvertJob& job)
{
    if (job.inputs.empty()) return core::makeError(core::ErrorCode::InvalidArgument, "a job needs an input");
    if (job.inputs.size() > 1) {
        auto merged = openMerged(job.inputs, job.password, job.snapshotDirectory);
        if (!merged) return merged.error();
        return std::unique_ptr<core::Recording>(std::move(*merged));
    }
    return formats::openRecording({job.inputs.front(), job.password, job.snapshotDirectory});
}

void count(const core::RecordingInfo& info, const Selection& selection, JobResult& result)
{
    result.channels = selection.channels.size();
    for (std::size_t c : selection.channels)
        result.samples += core::sampleSpan(info.channels[c], selection.range).count;
    result.annotations = static_cast<std::size_t>(
        std::count_if(info.annotations.begin(), info.annotations.end(),
                      [&](const core::Annotation& a) { return selection.range.contains(a.time); }));
}

JobResult fail(JobResult result, core::Error error)
{
    result.ok = false;
    result.error = std::move(error);
    return result;
}

} // namespace

JobResult runConvertJob(const ConvertJob& job, core::TaskRunner* runner, const core::CancelToken* cancel,
                        const JobProgress& progress)
{
    const auto started = std::chrono::steady_clock::now();
    JobResult result;
    const auto finish = [&](JobResult r) {
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return r;
    };
    auto recording = openInputs(job);
    if (!recording) return finish(fail(std::move(result), recording.error()));
    const core::RecordingInfo& info = (*recording)->info();
    result.warnings = info.warnings;
    auto selection = resolveSelection(info, job.selection);
    if (!selection) return finish(fail(std::move(result), selection.error()));
    auto renamed = RenamedRecording::wrap(std::move(*recording), job.rename);
    if (!renamed) return finish(fail(std::move(result), renamed.error()));
    core::ReadControl control;
    control.runner = runner;
    control.cancel = cancel;
    control.progress = progress;
    control.verifyCrc = job.verifyCrc;
    control.skipDamagedBlocks = job.skipDamaged;
    auto written = exportTo(**renamed, *selection, job.target, job.output, control);
    for (std::string& w : (*renamed)->takeWarnings()) result.warnings.push_back(std::move(w));
    if (!written) return finish(fail(std::move(result), written.error()));
    for (std::string& w : written->warnings) result.warnings.push_back(std::move(w));
    result.outputs = std::move(written->files);
    count((*renamed)->info(), *selection, result);
    result.ok = true;
    return finish(std::move(result));
}

} // namespace lv::convert
