// Running the commands and classifying their outcomes (see Corpus.h).
#include "Corpus.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <fstream>
#include <iterator>

namespace lv::corpus {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string readText(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The channel facts of `info --json` (name, rate, unit, factor, times, counts, gaps) and whether it warned.
std::string infoValues(const std::string& out, bool& warned)
{
    const auto j = nlohmann::json::parse(out, nullptr, false);
    if (j.is_discarded() || !j.contains("channels")) return "(not JSON)";
    if (j.contains("warnings") && !j["warnings"].empty()) warned = true;
    nlohmann::json v = nlohmann::json::array();
    for (const auto& c : j["channels"]) {
        nlohmann::json x;
        for (const char* k :
             {"name", "fs", "unit", "conversion_factor", "start_uutc", "end_uutc", "samples", "stored_samples", "gaps"})
            if (c.contains(k)) x[k] = c[k];
        v.push_back(x);
    }
    return v.dump();
}

// `stats --json` without the timing.
std::string statsValues(const std::string& out)
{
    auto j = nlohmann::json::parse(out, nullptr, false);
    if (j.is_discarded()) return "(not JSON)";
    j.erase("seconds");
    for (auto it = j.begin(); it != j.end();)
        it = lower(it.key()).find("rate") != std::string::npos ? j.erase(it) : std::next(it);
    if (j.contains("channels"))
        for (auto& c : j["channels"])
            for (auto it = c.begin(); it != c.end();)
                it =
                    lower(it.key()).find("rate") != std::string::npos && it.key() != "fs" ? c.erase(it) : std::next(it);
    return j.dump();
}

std::string outputExtension(const Source& source)
{
    if (source.kind == SourceKind::Mdf4 || source.kind == SourceKind::Cdf) return ".mf4"; // takes irregular channels
    if (source.kind == SourceKind::BrainVision) return ".vhdr";
    if (source.kind != SourceKind::Edf) return ".mefd";
    return source.root.extension() == ".bdf" ? ".bdf" : ".edf";
}

bool namesFile(const std::string& text, const std::string& name)
{
    return !name.empty() && text.find(name) != std::string::npos;
}

} // namespace

std::vector<std::string> commandNames() { return {"info", "stats", "csv", "convert", "validate"}; }

std::map<std::string, CommandResult> runCommands(const Settings& s, const Source& source, const fs::path& input,
                                                 const Baseline* clean, Baseline* baseline)
{
    const fs::path dir = input.parent_path();
    const fs::path out = dir / "out";
    std::map<std::string, CommandResult> results;
    const std::string cli = s.cli.string();
    const std::string in = source.kind == SourceKind::BrainVision
                               ? (input.filename() / (source.root.filename().string() + ".vhdr")).string()
                               : input.filename().string();
    std::vector<std::string> csv = {cli, "convert", in, "out/x.csv"};
    if (clean) csv.insert(csv.end(), clean->csvArguments.begin(), clean->csvArguments.end());
    std::map<std::string, std::vector<std::string>> argv = {
        {"info", {cli, "info", in, "--json"}},
        {"stats", {cli, "stats", in, "--json"}},
        {"csv", csv},
        {"convert", {cli, "convert", in, "out/x" + outputExtension(source)}},
        {"validate", {cli, "validate", in}},
    };
    std::vector<std::string> env = {"LONGVIEW_SNAPSHOT_DIR=" + (s.work / "snapshots").string(), "LC_ALL=C", "TZ=UTC"};
    if (s.sanitized) {
        env.push_back("ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:max_allocation_size_mb=1024:"
                      "allocator_may_return_null=0:hard_rss_limit_mb=3072");
        env.push_back("UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1");
    }
    for (const std::string& name : commandNames()) {
        fs::remove_all(out);
        fs::create_directories(out);
        ChildLimits limits;
        double seconds = s.minimumSeconds;
        if (clean)
            seconds = std::max(seconds, s.timeFactor * clean->results.at(name).outcome.seconds);
        else
            seconds = 600;
        limits.wall = std::chrono::milliseconds(static_cast<long>(seconds * 1000));
        if (!s.sanitized) limits.addressSpaceBytes = std::size_t{4} << 30;
        CommandResult r;
        r.command = name;
        r.outcome = runLimited(argv.at(name), dir, env, limits);
        if (!clean && baseline && name == "csv" && r.outcome.exitStatus == 2) {
            const auto j = nlohmann::json::parse(results["info"].outcome.out, nullptr, false);
            if (!j.is_discarded() && j.contains("channels") && !j["channels"].empty()) {
                baseline->csvArguments = {"--channels", j["channels"][0]["name"].get<std::string>()};
                argv["csv"].insert(argv["csv"].end(), baseline->csvArguments.begin(), baseline->csvArguments.end());
                fs::remove_all(out);
                fs::create_directories(out);
                r.outcome = runLimited(argv.at(name), dir, env, limits);
            }
        }
        r.warned = lower(r.outcome.err).find("warning") != std::string::npos;
        if (name == "info") r.values = infoValues(r.outcome.out, r.warned);
        if (name == "stats") r.values = statsValues(r.outcome.out);
        if (name == "csv") r.values = readText(out / "x.csv");
        if ((name == "csv" || name == "convert") && r.outcome.exitStatus != 0)
            r.leftovers = fs::exists(out) && !fs::is_empty(out);
        results[name] = std::move(r);
    }
    fs::remove_all(out);
    return results;
}

std::vector<Finding> classify(const Settings& s, const std::map<std::string, CommandResult>& results,
                              const Baseline& clean, const std::string& damaged, const std::string& inputName,
                              bool undetectable, bool onlyReadsSee)
{
    std::vector<Finding> f;
    bool othersSawDamage = false;
    std::string seenBy;
    for (const auto& [name, r] : results) {
        const ChildOutcome& o = r.outcome;
        const std::string text = o.out + o.err;
        const int code = o.exitStatus;
        const auto add = [&](const std::string& kind, const std::string& detail) { f.push_back({name, kind, detail}); };
        const bool sanitizer = text.find("AddressSanitizer") != std::string::npos ||
                               text.find("LeakSanitizer") != std::string::npos ||
                               text.find("runtime error:") != std::string::npos;
        const bool memory = text.find("std::bad_alloc") != std::string::npos ||
                            text.find("allocation-size-too-big") != std::string::npos ||
                            text.find("rss limit exhausted") != std::string::npos ||
                            text.find("out-of-memory") != std::string::npos ||
                            (!s.sanitized && o.maxRssKb > s.memoryLimitKb);
        // The error line (the first one that is not a warning), for the finding's detail.
        std::string firstLine;
        for (std::size_t at = 0; at < o.err.size();) {
            const std::size_t eol = std::min(o.err.find('\n', at), o.err.size());
            const std::string line = o.err.substr(at, eol - at);
            if (firstLine.empty() || line.find("warning:") == std::string::npos) firstLine = line.substr(0, 200);
            if (line.find("warning:") == std::string::npos) break;
            at = eol + 1;
        }
        if (o.timedOut) {
            add("hang", "killed after " + std::to_string(static_cast<int>(o.seconds)) + " s");
            continue;
        }
        if (memory) {
            add("memory", "peak RSS " + std::to_string(o.maxRssKb / 1024) + " MB, exit " + std::to_string(code) +
                              (o.signal ? " signal " + std::to_string(o.signal) : "") + ": " + firstLine);
            continue;
        }
        if (o.signal != 0 || (code >= 128 && code != 130) || sanitizer) {
            std::string what = o.signal ? "signal " + std::to_string(o.signal) : "exit " + std::to_string(code);
            const auto at = text.find(
                sanitizer ? (text.find("runtime error:") != std::string::npos ? "runtime error:" : "Sanitizer")
                          : "terminate");
            if (at != std::string::npos)
                what += ": " + text.substr(at, std::min<std::size_t>(160, text.find('\n', at) - at));
            add("crash", what);
            continue;
        }
        // A mixed-rate CSV names the clean file's first channel; damage that renamed it makes that option name no
        // channel of this file: a usage error of ours (exit 2), not the reader's.
        const bool renamedChannel =
            name == "csv" && code == 2 && !clean.csvArguments.empty() &&
            firstLine.find("no channel \"" + clean.csvArguments.back() + "\"") != std::string::npos;
        if (renamedChannel) continue;
        if (code != 0 && code != 1 && code != 3) add("exit-code", "exit " + std::to_string(code) + ": " + firstLine);
        if (name != "validate" && code != 0) {
            othersSawDamage = true;
            seenBy = name + " exit " + std::to_string(code);
        }
        const CommandResult& base = clean.results.at(name);
        const bool blind = undetectable || (onlyReadsSee && name == "info"); // cannot tell, so not asked to
        const bool differs = !blind && name != "convert" && name != "validate" && r.values != base.values;
        if (code == 0 && differs && !r.warned && name != "validate") {
            add("silent-diff", "exit 0, values differ from the clean run, no warning");
        }
        if (code == 0 && differs && name != "validate") {
            othersSawDamage = true;
            if (seenBy.empty()) seenBy = name + " values differ";
        }
        if (code != 0 && code != 130 && !namesFile(text, damaged) && !namesFile(text, inputName))
            add("no-file-named", "exit " + std::to_string(code) + ": " + firstLine);
        if (r.leftovers) add("leftover", "output folder not empty after exit " + std::to_string(code));
    }
    const auto v = results.find("validate");
    if (v != results.end() && v->second.outcome.exitStatus == 0 && !v->second.outcome.timedOut && othersSawDamage &&
        clean.results.at("validate").outcome.exitStatus == 0)
        f.push_back({"validate", "validate-missed", "exit 0 (no problem) though " + seenBy});
    return f;
}

} // namespace lv::corpus
