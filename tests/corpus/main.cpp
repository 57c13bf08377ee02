// longview-corpus: the corruption corpus. Makes damaged copies of every file type (MEF session, channel and
// segment files, a .mefd.tar, EDF, BDF), runs longview-cli on each with a time and memory limit and prints
// the findings and a summary table; exit 1 when anything was found.
//
//   longview-corpus              a deterministic sample (every --every'th case, default 37)
//   longview-corpus --all        every case
//   options: --every N, --match TEXT (cases whose id contains TEXT), --jobs N, --keep DIR (damaged copies of
//            cases with findings), --findings FILE (tab-separated), --list, --cli PATH, --testdata PATH
#include "Cases.h"
#include "Corpus.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace lv::corpus;

namespace {

struct Options {
    bool all = false;
    bool list = false;
    std::size_t every = 37;
    std::string match;
    unsigned jobs = 2;
    fs::path keep;
    fs::path findings;
    fs::path cli = LONGVIEW_CLI;
    fs::path testdata = LONGVIEW_TESTDATA;
};

Options parse(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "longview-corpus: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--all")
            o.all = true;
        else if (a == "--list")
            o.list = true;
        else if (a == "--every")
            o.every = std::max<std::size_t>(1, std::stoul(next()));
        else if (a == "--match")
            o.match = next();
        else if (a == "--jobs")
            o.jobs = std::max(1, std::stoi(next()));
        else if (a == "--keep")
            o.keep = next();
        else if (a == "--findings")
            o.findings = next();
        else if (a == "--cli")
            o.cli = next();
        else if (a == "--testdata")
            o.testdata = next();
        else {
            std::fprintf(stderr, "usage: longview-corpus [--all | --every N] [--match TEXT] [--jobs N] [--keep DIR] "
                                 "[--findings FILE] [--list] [--cli PATH] [--testdata PATH]\n");
            std::exit(2);
        }
    }
    return o;
}

void copyWritable(const fs::path& from, const fs::path& to)
{
    fs::copy(from, to, fs::copy_options::recursive);
    if (fs::is_regular_file(to))
        fs::permissions(to, fs::perms::owner_write, fs::perm_options::add);
    else
        for (const auto& e : fs::recursive_directory_iterator(to))
            fs::permissions(e.path(), fs::perms::owner_all, fs::perm_options::add);
}

// Keeps, of a multi-channel session, the session-level files and those of the first channel.
void firstChannelOnly(std::vector<Case>& cases)
{
    std::map<const Source*, std::string> first;
    for (const Case& c : cases) {
        const std::string top = c.file.empty() ? "" : c.file.begin()->string();
        if (top.ends_with(".timd") && (!first.count(c.source) || top < first[c.source])) first[c.source] = top;
    }
    std::erase_if(cases, [&](const Case& c) {
        const std::string top = c.file.empty() ? "" : c.file.begin()->string();
        return top.ends_with(".timd") && top != first[c.source];
    });
}

int runCli(const Settings& s, const std::vector<std::string>& args)
{
    std::vector<std::string> argv = {s.cli.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildLimits limits;
    limits.wall = std::chrono::milliseconds(600000);
    const ChildOutcome o = runLimited(argv, s.work, {}, limits);
    if (o.exitStatus != 0) std::fprintf(stderr, "longview-corpus: %s failed: %s\n", args[0].c_str(), o.err.c_str());
    return o.exitStatus;
}

// The clean sources, copied (or written by longview-cli synth/archive) into `clean`.
std::vector<Source> makeSources(const Settings& s, const fs::path& testdata)
{
    const fs::path clean = s.work / "clean";
    fs::create_directories(clean);
    std::vector<Source> sources;
    const auto copy = [&](const std::string& name, SourceKind kind, const fs::path& from) {
        copyWritable(from, clean / from.filename());
        sources.push_back({name, kind, clean / from.filename()});
    };
    copy("plain_single", SourceKind::Mef, testdata / "mef3/legacy/plain_single.mefd");
    copy("with_annotations", SourceKind::Mef, testdata / "mef3/legacy/with_annotations.mefd");
    copy("meflib_rto", SourceKind::Mef, testdata / "mef3/meflib/meflib_rto.mefd");
    // Three segments of 20 s, pauses, NaN runs and session-level annotations; then the same as an archive.
    if (runCli(s, {"synth", "clean/synth.mefd", "--channels", "2", "--hours", "0.0167", "--fs", "128",
                   "--segment-minutes", "0.34", "--seed", "14", "--block-seconds", "2"}) == 0) {
        sources.push_back({"synth", SourceKind::Mef, clean / "synth.mefd"});
        if (runCli(s, {"archive", "clean/synth.mefd", "clean/synth.mefd.tar"}) == 0)
            sources.push_back({"synth_tar", SourceKind::Tar, clean / "synth.mefd.tar"});
    }
    copy("ref_edflib.edf", SourceKind::Edf, testdata / "edf/ref_edflib.edf");
    copy("test_subsecond.edf", SourceKind::Edf, testdata / "edf/test_subsecond.edf");
    copy("ref_edflib.bdf", SourceKind::Edf, testdata / "edf/ref_edflib.bdf");
    copy("test_generator_2.bdf", SourceKind::Edf, testdata / "edf/test_generator_datarec_generator_2.bdf");
    copy("two_rates_dz.mf4", SourceKind::Mdf4, testdata / "mdf4/asammdf_two_rates_dz.mf4");
    copy("dSPACE.mf4", SourceKind::Mdf4, testdata / "mdf4/dSPACE_CaptureBlocks.mf4");
    copy("unsorted.mf4", SourceKind::Mdf4, testdata / "mdf4/Vector_SingleDZ_Unsorted.MF4");
    copy("sis.cdf", SourceKind::Cdf, testdata / "cdf/ac_h2_sis_20101105_v06.cdf");  // CDF 2.5, big-endian
    copy("utf8.cdf", SourceKind::Cdf, testdata / "cdf/testutf8.cdf");               // CDF 3, GZIP variables
    copy("compressed.cdf", SourceKind::Cdf, testdata / "cdf/a_compressed_cdf.cdf"); // whole-file GZIP
    // BrainVision as Longview writes it (floats with NaN runs, gaps as dated segments, markers), of the synth session.
    fs::create_directories(clean / "bv");
    if (fs::exists(clean / "synth.mefd") && runCli(s, {"convert", "clean/synth.mefd", "clean/bv/bv.vhdr"}) == 0)
        sources.push_back({"synth.vhdr", SourceKind::BrainVision, clean / "bv"});
    return sources;
}

std::string describe(const ChildOutcome& o)
{
    return o.timedOut ? "timeout" : o.signal ? "sig" + std::to_string(o.signal) : std::to_string(o.exitStatus);
}

} // namespace

int main(int argc, char** argv)
{
    const Options o = parse(argc, argv);
    Settings s;
    s.cli = fs::absolute(o.cli);
#if defined(__SANITIZE_ADDRESS__)
    s.sanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    s.sanitized = true;
#endif
#endif
    char pattern[] = "/tmp/longview-corpus-XXXXXX";
    if (!::mkdtemp(pattern)) return 2;
    s.work = pattern;
    const std::vector<Source> sources = makeSources(s, o.testdata);
    std::vector<Case> cases;
    for (const Source& src : sources) {
        std::vector<Case> more = casesFor(src);
        cases.insert(cases.end(), more.begin(), more.end());
    }
    firstChannelOnly(cases);
    for (std::size_t i = 0; i < cases.size(); ++i) cases[i].index = i;
    std::erase_if(cases, [&](const Case& c) {
        return (!o.all && c.index % o.every != 0) || (!o.match.empty() && c.id().find(o.match) == std::string::npos);
    });
    if (o.list) {
        for (const Case& c : cases) std::printf("%zu %s\n", c.index, c.id().c_str());
        fs::remove_all(s.work);
        return 0;
    }

    std::map<const Source*, Baseline> baselines;
    for (const Source& src : sources) {
        Baseline& b = baselines[&src];
        const fs::path dir = s.work / ("baseline-" + src.name);
        fs::create_directories(dir);
        copyWritable(src.root, dir / src.root.filename());
        b.results = runCommands(s, src, dir / src.root.filename(), nullptr, &b);
        std::printf("clean %-22s", src.name.c_str());
        for (const auto& [name, r] : b.results)
            std::printf(" %s=%s/%.2fs", name.c_str(), describe(r.outcome).c_str(), r.outcome.seconds);
        std::printf("\n");
        fs::remove_all(dir);
    }

    std::mutex lock;
    std::atomic<std::size_t> next{0};
    std::size_t findingCount = 0;
    std::map<std::string, std::map<std::string, int>> table; // source -> command:outcome / finding kind -> count
    std::ofstream tsv;
    if (!o.findings.empty()) tsv.open(o.findings);
    const auto worker = [&] {
        for (std::size_t i; (i = next++) < cases.size();) {
            const Case& c = cases[i];
            const fs::path dir = s.work / ("case-" + std::to_string(c.index));
            fs::create_directories(dir);
            const fs::path input = dir / c.source->root.filename();
            copyWritable(c.source->root, input);
            applyCase(c, input);
            const auto results = runCommands(s, *c.source, input, &baselines[c.source]);
            const std::string damaged = c.file.empty() ? input.filename().string() : c.file.filename().string();
            const auto found = classify(s, results, baselines[c.source], damaged, input.filename().string(),
                                        c.undetectable, c.onlyReadsSee);
            std::lock_guard guard(lock);
            auto& row = table[c.source->name];
            ++row["cases"];
            for (const auto& [name, r] : results) ++row[name + ":" + describe(r.outcome)];
            for (const Finding& f : found) {
                ++findingCount;
                ++row["finding:" + f.kind];
                std::printf("FINDING %zu [%s] %s: %s: %s\n", c.index, c.id().c_str(), f.command.c_str(), f.kind.c_str(),
                            f.detail.c_str());
                if (tsv)
                    tsv << c.index << '\t' << c.id() << '\t' << f.command << '\t' << f.kind << '\t' << f.detail
                        << std::endl;
            }
            std::fflush(stdout);
            if (!found.empty() && !o.keep.empty()) {
                fs::create_directories(o.keep);
                fs::remove_all(o.keep / std::to_string(c.index));
                fs::copy(dir, o.keep / std::to_string(c.index), fs::copy_options::recursive);
            }
            fs::remove_all(dir);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned j = 0; j < o.jobs; ++j) pool.emplace_back(worker);
    for (auto& t : pool) t.join();

    std::printf("\nsummary (%zu cases, %zu findings; outcome counts per command: exit status, sigN, timeout)\n",
                cases.size(), findingCount);
    for (const auto& [source, row] : table) {
        std::printf("%-22s", source.c_str());
        for (const auto& [key, count] : row) std::printf(" %s=%d", key.c_str(), count);
        std::printf("\n");
    }
    fs::remove_all(s.work);
    return findingCount == 0 ? 0 : 1;
}
