// longview-cli batch: every recording under the inputs converted to one format under one folder, side by side,
// a shard of them per cluster task; a failing file does not stop the rest (exit 5 when some failed).
#include "Commands.h"
#include "ConvertCommand.h"
#include "JobJson.h"
#include "ProgressBars.h"

#include "convert/BatchPlan.h"
#include "convert/JobQueue.h"
#include "core/TextEscape.h"

#include <CLI/CLI.hpp>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>

namespace lv::cli {

namespace {

namespace fs = std::filesystem;

struct BatchOptions {
    ConvertOptions convert;
    std::vector<std::string> inputs;
    std::string to;
    std::string outDir;
    std::size_t jobs = 1;
    std::string shard = "0/1";
    bool skipExisting = false;
    bool json = false;
    std::size_t memoryMegabytes = 0; // 0: half the machine's memory
};

enum class Status { Ok, Failed, Skipped, Cancelled };

struct Row {
    const convert::BatchItem* item = nullptr;
    Status status = Status::Failed;
    convert::JobResult result;
};

const char* statusName(Status s)
{
    switch (s) {
    case Status::Ok:
        return "ok";
    case Status::Failed:
        return "failed";
    case Status::Skipped:
        return "skipped";
    case Status::Cancelled:
        return "cancelled";
    }
    return "";
}

// Empty folders a failed job's output left on the way from `outDir` (the writer removed its own files).
void removeEmptyParents(const fs::path& output, const fs::path& outDir)
{
    std::error_code ec;
    for (fs::path p = output.parent_path(); !p.empty() && p != outDir && p.string().size() > outDir.string().size();
         p = p.parent_path())
        if (!fs::remove(p, ec)) break;
}

void printTable(const std::vector<Row>& rows)
{
    std::printf("%-9s %9s %13s %8s  %s\n", "status", "seconds", "samples", "warnings", "input -> output");
    for (const Row& r : rows) {
        std::printf("%-9s %9.2f %13lld %8zu  %s -> %s\n", statusName(r.status), r.result.seconds,
                    static_cast<long long>(r.result.samples), r.result.warnings.size(),
                    core::escapeControls(r.item->input).c_str(), core::escapeControls(r.item->output).c_str());
        if (r.item->renamed) std::printf("%36s(named apart from another input of the same name)\n", "");
        if (const std::string done = r.result.deidentified.summary(); r.status == Status::Ok && !done.empty())
            std::printf("%36s%s\n", "", core::escapeControls(done).c_str());
        if (r.status == Status::Failed || r.status == Status::Cancelled)
            std::printf("%36s%s\n", "", core::escapeControls(app::errorText(r.result.error)).c_str());
    }
}

void printJson(const std::vector<Row>& rows, std::size_t counts[4])
{
    nlohmann::json items = nlohmann::json::array();
    for (const Row& r : rows) {
        nlohmann::json x = jobResultJson(r.result);
        x["input"] = r.item->input;
        x["output"] = r.item->output;
        x["status"] = statusName(r.status);
        x["renamed"] = r.item->renamed;
        if (r.status == Status::Failed || r.status == Status::Cancelled)
            x["error"] = app::errorText(r.result.error, app::Audience::Gui);
        else
            x.erase("error");
        items.push_back(std::move(x));
    }
    const nlohmann::json out = {{"items", items},
                                {"succeeded", counts[0]},
                                {"failed", counts[1]},
                                {"skipped", counts[2]},
                                {"cancelled", counts[3]}};
    std::printf("%s\n", out.dump(2, ' ', true).c_str());
}

// The overall line: finished jobs count whole, running ones by their fraction.
class BatchProgress {
public:
    explicit BatchProgress(std::size_t jobs) : m_meter(0), m_fractions(jobs, 0.0) {}
    convert::JobProgress set(std::size_t job, double fraction)
    {
        std::lock_guard lock(m_mutex);
        m_fractions[job] = fraction;
        double sum = 0;
        for (double f : m_fractions) sum += f;
        constexpr double kUnits = 1e6;
        return m_meter.update(static_cast<std::uint64_t>(sum * kUnits),
                              static_cast<std::uint64_t>(static_cast<double>(m_fractions.size()) * kUnits));
    }

private:
    std::mutex m_mutex;
    convert::ProgressMeter m_meter;
    std::vector<double> m_fractions;
};

// Runs the jobs with a bar per running job and an overall one on a terminal.
std::vector<convert::JobResult> runQueue(const BatchOptions& o, const std::vector<convert::ConvertJob>& jobs)
{
    ProgressBars bars(stderrIsTerminal() && !o.json);
    BatchProgress overall(jobs.size());
    std::atomic<std::size_t> finished{0}, failed{0};
    const auto overallLabel = [&] {
        return "batch: " + std::to_string(finished.load()) + " of " + std::to_string(jobs.size()) + " done" +
               (failed ? ", " + std::to_string(failed.load()) + " failed" : std::string());
    };
    const auto label = [&](std::size_t j) { return fs::path(jobs[j].inputs.front()).filename().string(); };
    convert::QueueEvents events;
    if (bars.enabled()) {
        events.progress = [&](std::size_t j, const convert::JobProgress& p) {
            bars.update(j, label(j), p);
            bars.setOverall(overall.set(j, p.fraction), overallLabel());
        };
        events.finished = [&](std::size_t j, const convert::JobResult& r) {
            ++finished;
            if (!r.ok) ++failed;
            bars.remove(j);
            bars.setOverall(overall.set(j, 1.0), overallLabel());
        };
    }
    const std::uint64_t memory = static_cast<std::uint64_t>(o.memoryMegabytes) << 20;
    auto results = convert::runJobs(jobs, {o.jobs, o.convert.common.threads, cancelToken(), memory}, events);
    bars.finish();
    return results;
}

int run(BatchOptions& o)
{
    const convert::TargetFormat* target = convert::targetForExtension(o.to);
    if (!target)
        return fail(core::makeError(core::ErrorCode::InvalidArgument,
                                    "--to \"" + o.to + "\" is no target format: use " + convert::knownTargetNames()));
    auto shard = convert::parseShard(o.shard);
    if (!shard) return fail(shard.error());
    auto plan = convert::planBatch(o.inputs, o.outDir, o.to);
    if (!plan) return fail(plan.error());
    const std::vector<convert::BatchItem> items = convert::shardOf(*plan, *shard);
    const fs::path outDir = fs::weakly_canonical(fs::absolute(o.outDir));
    std::vector<Row> rows(items.size());
    std::vector<convert::ConvertJob> jobs;
    std::vector<std::size_t> rowOfJob;
    for (std::size_t i = 0; i < items.size(); ++i) {
        rows[i].item = &items[i];
        std::error_code ec;
        if (o.skipExisting && fs::exists(items[i].output, ec)) {
            rows[i].status = Status::Skipped;
            continue;
        }
        fs::create_directories(fs::path(items[i].output).parent_path(), ec);
        jobs.push_back(jobFor(o.convert, {items[i].input}, items[i].output));
        rowOfJob.push_back(i);
    }
    const auto results = runQueue(o, jobs);
    std::size_t counts[4] = {0, 0, 0, 0};
    bool cancelled = cancelToken()->cancelled();
    for (std::size_t j = 0; j < results.size(); ++j) {
        Row& row = rows[rowOfJob[j]];
        row.result = results[j];
        const bool stopped = !results[j].ok && results[j].error.code == core::ErrorCode::Cancelled;
        row.status = results[j].ok ? Status::Ok : stopped ? Status::Cancelled : Status::Failed;
        if (!results[j].ok) removeEmptyParents(jobs[j].output, outDir);
    }
    for (const Row& r : rows) ++counts[static_cast<int>(r.status)];
    if (o.json)
        printJson(rows, counts);
    else
        printTable(rows);
    if (cancelled) return kCancelled;
    return counts[1] > 0 ? static_cast<int>(app::kExitBatchPartial) : static_cast<int>(kOk);
}

} // namespace

std::function<int()> addBatchCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("batch", "Convert every recording under the inputs to one format under --out, "
                                                "side by side; exit 5 when some failed");
    auto o = std::make_shared<BatchOptions>();
    command
        ->add_option("IN", o->inputs,
                     "Recordings or folders searched for recordings (.mefd, .mefd.tar, .edf, .bdf, .mf4)")
        ->required();
    command->add_option("--to", o->to, "Target format: mefd, edf, bdf, mf4 or csv")->required();
    command->add_option("--out", o->outDir, "Output folder (the inputs' relative layout is kept under it)")->required();
    command->add_option("--jobs", o->jobs, "Conversions side by side (default 1); --threads are shared among them")
        ->check(CLI::Range(1, 256));
    command->add_option("--shard", o->shard,
                        "I/N: this task's share of the sorted inputs (a Slurm job array: "
                        "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT, --array=0-(N-1))");
    command
        ->add_option("--memory", o->memoryMegabytes,
                     "Memory the side-by-side conversions may hold together, in MB (default: half the machine's); a "
                     "conversion that does not fit waits")
        ->check(CLI::Range(1, 1 << 30));
    command->add_flag("--skip-existing", o->skipExisting, "Leave out inputs whose output exists (a re-run resumes)");
    command->add_flag("--json", o->json, "Print the result as JSON");
    addConvertOptions(*command, o->convert);
    return [o]() { return run(*o); };
}

} // namespace lv::cli
