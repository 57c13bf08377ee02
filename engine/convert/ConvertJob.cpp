// Running one conversion job from its description.
#include "convert/ConvertJob.h"

#include "annotations/AnnotationSidecar.h"
#include "convert/AnnotatedRecording.h"
#include "convert/MergedRecording.h"
#include "convert/RenamedRecording.h"
#include "filter/FilteredRecording.h"
#include "formats/RecordingOpener.h"
#include "montage/LoadMontage.h"
#include "montage/MontageRecording.h"

#include <algorithm>

namespace lv::convert {

namespace {

core::Result<std::unique_ptr<core::Recording>> openInputs(const ConvertJob& job)
{
    if (job.inputs.empty()) return core::makeError(core::ErrorCode::InvalidArgument, "a job needs an input");
    if (job.inputs.size() > 1) {
        return openMerged(job.inputs, job.password, job.snapshotDirectory, job.merge);
    }
    return formats::openRecording({job.inputs.front(), job.password, job.snapshotDirectory});
}

struct UserAnnotations {
    std::string file; // empty: none
    std::vector<core::Annotation> annotations;
};

core::Result<UserAnnotations> userAnnotationsOf(const ConvertJob& job, const core::RecordingInfo& info)
{
    if (!job.userAnnotations || job.inputs.size() != 1) return UserAnnotations{};
    const std::string& input = job.inputs.front();
    auto loaded = annotations::loadUserAnnotations(info, input, job.annotationDirectory);
    if (!loaded) return loaded.error();
    if (loaded->empty()) return UserAnnotations{};
    return UserAnnotations{annotations::findSidecar(input, job.annotationDirectory), std::move(*loaded)};
}

void count(core::Recording& recording, const Selection& selection, JobResult& result)
{
    const core::RecordingInfo& info = recording.info();
    result.channels = selection.channels.size();
    for (std::size_t c : selection.channels) {
        const core::ChannelInfo& ch = info.channels[c];
        const auto span = recording.samplesIn(c, selection.range);
        ChannelCount n{ch.name, span ? span->count : 0, 0};
        n.annotations = static_cast<std::size_t>(
            std::count_if(info.annotations.begin(), info.annotations.end(), [&](const core::Annotation& a) {
                return a.channel == ch.name && selection.range.contains(a.time);
            }));
        result.samples += n.samples;
        result.perChannel.push_back(std::move(n));
    }
    result.annotations = static_cast<std::size_t>(
        std::count_if(info.annotations.begin(), info.annotations.end(),
                      [&](const core::Annotation& a) { return selection.range.contains(a.time); }));
}

// The montage's derivations in place of the recorded channels; what could not be built goes to `notes`.
core::Result<std::unique_ptr<montage::MontageRecording>> derive(std::unique_ptr<core::Recording> recording,
                                                                const ConvertJob& job, std::vector<std::string>& notes)
{
    if (job.montageGiven) return montage::MontageRecording::create(std::move(recording), *job.montageGiven);
    auto built = montage::loadMontage(job.montage, recording->info());
    if (!built) return built.error();
    for (std::string& n : built->notes) notes.push_back("montage: " + n);
    return montage::MontageRecording::create(std::move(recording), built->montage);
}

// Irregular channels put on a grid when asked, or when the target needs one (then resampling must have been asked).
core::Result<std::unique_ptr<core::Recording>> gridded(std::unique_ptr<core::Recording> recording,
                                                       const ConvertJob& job, const TargetFormat& target,
                                                       const Selection& selection, const core::ReadControl& control,
                                                       JobResult& result)
{
    const core::RecordingInfo& info = recording->info();
    if (!job.resample.requested()) {
        if (target.takesIrregular) return recording;
        for (std::size_t c : selection.channels)
            if (info.channels[c].irregular)
                return core::makeError(core::ErrorCode::InvalidArgument,
                                       "channel " + info.channels[c].name + " is sampled at irregular times and " +
                                           target.description +
                                           " needs a sampling grid: give --resample RATE (and --hold MAX_GAP), or "
                                           "leave the channel out",
                                       info.path);
        return recording;
    }
    auto resampled = ResampledRecording::create(std::move(recording), job.resample, selection.channels, control);
    if (!resampled) return resampled.error();
    for (const std::string& note : (*resampled)->notes()) result.warnings.push_back(note);
    return std::unique_ptr<core::Recording>(std::move(*resampled));
}

JobResult fail(JobResult result, core::Error error)
{
    result.ok = false;
    result.error = std::move(error);
    return result;
}

// Holds a share of the budget until the job ends.
class BudgetShare {
public:
    BudgetShare(MemoryBudget* budget, std::uint64_t bytes) : m_budget(budget), m_bytes(bytes) {}
    BudgetShare(const BudgetShare&) = delete;
    BudgetShare& operator=(const BudgetShare&) = delete;
    ~BudgetShare()
    {
        if (m_taken) m_budget->release(m_bytes);
    }
    bool take(const core::CancelToken* cancel)
    {
        if (!m_budget) return true;
        m_taken = m_budget->acquire(m_bytes, cancel);
        return m_taken;
    }

private:
    MemoryBudget* m_budget;
    std::uint64_t m_bytes;
    bool m_taken = false;
};

} // namespace

std::uint64_t estimateJobMemory(const TargetFormat& target, const core::RecordingInfo& info, const Selection& selection,
                                std::size_t threads)
{
    constexpr std::uint64_t kReaderScratchPerThread = std::uint64_t{18} << 20; // a run's samples and bytes
    constexpr std::uint64_t kPerChannel = std::uint64_t{256} << 10;            // per-channel state of a writer
    const std::size_t channels = selection.channels.empty() ? info.channels.size() : selection.channels.size();
    return target.workingBytes + kReaderScratchPerThread * std::max<std::size_t>(1, threads) + kPerChannel * channels;
}

JobResult runConvertJob(const ConvertJob& job, const JobEnvironment& environment, const JobEvents& events)
{
    const auto started = std::chrono::steady_clock::now();
    JobResult result;
    const auto finish = [&](JobResult r) {
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return r;
    };
    const TargetFormat* target = targetForOutput(job.output);
    if (!target)
        return finish(fail(std::move(result), core::makeError(core::ErrorCode::InvalidArgument,
                                                              "cannot tell the output format of \"" + job.output +
                                                                  "\": use " + knownTargetNames())));
    auto recording = openInputs(job);
    if (!recording) return finish(fail(std::move(result), recording.error()));
    auto user = userAnnotationsOf(job, (*recording)->info());
    if (!user) return finish(fail(std::move(result), user.error()));
    result.annotationFile = user->file;
    *recording = AnnotatedRecording::wrap(std::move(*recording), user->annotations);
    std::vector<std::string> processing, notes; // said in the output's provenance; the montage's notes
    if (!job.montage.empty() || job.montageGiven) {
        auto derived = derive(std::move(*recording), job, notes);
        if (!derived) return finish(fail(std::move(result), derived.error()));
        processing.push_back((*derived)->note());
        *recording = std::move(*derived);
    }
    const core::RecordingInfo& info = (*recording)->info();
    result.warnings = info.warnings;
    result.openWarnings = result.warnings.size();
    result.warnings.insert(result.warnings.end(), notes.begin(), notes.end());
    if (events.opened) events.opened(info);
    auto selection = resolveSelection(info, job.selection);
    if (!selection) return finish(fail(std::move(result), selection.error()));
    auto renamed = RenamedRecording::wrap(std::move(*recording), job.rename);
    if (!renamed) return finish(fail(std::move(result), renamed.error()));
    if (target->extension == "mefd") { // MEF keeps each channel in a folder of its name
        const auto safe = folderSafeNames((*renamed)->info());
        for (const auto& [from, to] : safe) {
            std::string w = "channel \"" + from;
            w += "\" is written as \"" + to;
            w += "\": a MEF channel is a folder of its name";
            result.warnings.push_back(std::move(w));
        }
        renamed = RenamedRecording::wrap(std::move(*renamed), safe);
        if (!renamed) return finish(fail(std::move(result), renamed.error()));
    }
    core::ReadControl openControl;
    openControl.cancel = environment.cancel;
    renamed = gridded(std::move(*renamed), job, *target, *selection, openControl, result);
    if (!renamed) return finish(fail(std::move(result), renamed.error()));
    if (job.filter.any()) {
        auto f = filter::FilteredRecording::create(std::move(*renamed), job.filter, selection->channels);
        if (!f) return finish(fail(std::move(result), f.error()));
        processing.push_back((*f)->note());
        renamed = std::unique_ptr<core::Recording>(std::move(*f));
    }
    TargetOptions options = job.target; // with the provenance
    auto deidentified = deidentifyConversion(*renamed, job.deidentify, job.inputs, *selection, options);
    if (!deidentified) return finish(fail(std::move(result), deidentified.error()));
    for (const std::string& p : processing)
        options.provenance.processing += (options.provenance.processing.empty() ? "" : "; ") + p;
    result.deidentified = std::move(*deidentified);
    core::Recording& source = **renamed;
    const std::size_t threads = environment.runner ? environment.runner->threadCount() : 1;
    result.memoryBytes = estimateJobMemory(*target, source.info(), *selection, threads);
    BudgetShare share(environment.memory, result.memoryBytes);
    if (!share.take(environment.cancel))
        return finish(
            fail(std::move(result), core::makeError(core::ErrorCode::Cancelled, "cancelled before it started")));
    if (events.writing) events.writing();
    count(source, *selection, result);
    result.userAnnotations = static_cast<std::size_t>(
        std::count_if(user->annotations.begin(), user->annotations.end(),
                      [&](const core::Annotation& a) { return selection->range.contains(a.time); }));
    ProgressMeter meter(result.samples);
    core::ReadControl control;
    control.runner = environment.runner;
    control.cancel = environment.cancel;
    if (events.progress)
        control.progress = [&](std::uint64_t done, std::uint64_t total) { events.progress(meter.update(done, total)); };
    control.verifyCrc = job.verifyCrc;
    control.skipDamagedBlocks = job.skipDamaged;
    control.forwardOnly = true; // every writer reads its input once, forward (a second pass is only slower)
    auto written = target->write(source, *selection, options, job.output, control);
    for (std::string& w : source.takeWarnings()) result.warnings.push_back(std::move(w));
    if (!written) {
        result.samples = 0, result.perChannel.clear(); // nothing was written
        core::Error error = written.error();
        // A de-identified recording has no path for a writer to name; the job names its input.
        if (job.deidentify.anonymize && error.path.empty() && job.inputs.size() == 1 &&
            error.code != core::ErrorCode::Cancelled)
            error.path = job.inputs.front();
        return finish(fail(std::move(result), std::move(error)));
    }
    if (events.progress) events.progress(meter.finished());
    for (std::string& w : written->warnings) result.warnings.push_back(std::move(w));
    result.outputs = std::move(written->files);
    result.parts = result.outputs.size();
    result.outputs.insert(result.outputs.end(), written->sideFiles.begin(), written->sideFiles.end());
    result.ok = true;
    return finish(std::move(result));
}

} // namespace lv::convert
