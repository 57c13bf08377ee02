// longview-bench-scenarios: runs each cell of the viewing scenarios (E1-E6, E11), the conversions (C1) and the
// conversion hub's commands (H) in a fresh process of its own
// and prints one JSON line per cell. `--cell NAME key=value...` runs one cell in this process.
//   longview-bench-scenarios [--only E2,E4] [--quick]      all cells (or some scenarios), one process each
//   longview-bench-scenarios --cell E2 channels=64 pageSeconds=10 thinkMs=100
#include "Scenario.h"

#include "common/MemoryTuning.h"

#include <cstdio>
#include <cstring>
#include <functional>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using lv::bench::CellArgs;
using lv::bench::Json;

const std::map<std::string, std::function<Json(const CellArgs&)>>& scenarios()
{
    static const std::map<std::string, std::function<Json(const CellArgs&)>> s{
        {"E1", lv::bench::runOpen},  {"E2", lv::bench::runPaging},  {"E3", lv::bench::runJumps},
        {"E4", lv::bench::runZoom},  {"E5", lv::bench::runShared},  {"E6", lv::bench::runScan},
        {"E11", lv::bench::runSoak}, {"C1", lv::bench::runConvert}, {"H", lv::bench::runHub},
    };
    return s;
}

// Every cell of the plan, as argument lists.
std::vector<std::vector<std::string>> plan(bool quick)
{
    std::vector<std::vector<std::string>> cells;
    const std::string ops = quick ? "ops=20" : "ops=200";
    for (const char* session : {"64ch-12h-seg60", "64ch-12h-seg4.5"})
        for (const char* container : {"dir", "tar"})
            for (const char* mode : {"cold", "warm", "snapshot", "snapshot-cold"})
                cells.push_back({"E1", std::string("session=") + session, std::string("container=") + container,
                                 std::string("mode=") + mode, ops});
    for (int page : {10, 30, 60})
        for (int channels : {16, 64, 128})
            for (int think : {0, 100, 300})
                cells.push_back({"E2", "pageSeconds=" + std::to_string(page), "channels=" + std::to_string(channels),
                                 "thinkMs=" + std::to_string(think), ops});
    cells.push_back({"E3", "channels=64", quick ? "jumps=10" : "jumps=100"});
    cells.push_back({"E4", "pyramid=0", quick ? "ladders=3" : "ladders=25"});
    cells.push_back({"E4", "pyramid=1", quick ? "ladders=3" : "ladders=25"});
    cells.push_back({"E5", ops});
    cells.push_back({"E6", "threads=1"});
    cells.push_back({"E6", "threads=0"});
    for (const char* budget : {"budgetMB=64", "budgetMB=512"})
        cells.push_back({"E11", budget, quick ? "seconds=20" : "seconds=300"});
    for (const char* hours : {"hours=1", "hours=12"})
        for (const char* format : {"format=edf", "format=bdf"})
            if (!quick || hours == std::string("hours=1")) cells.push_back({"C1", hours, format});
    // H: floors, then the hub's commands; 64 ch x 12 h at 256 Hz unless named (mef48: 48 h).
    for (const char* in : {"input=mef12", "input=edf12"}) cells.push_back({"H", "op=floor", in});
    for (const char* threads : {"threads=1", "threads=0"}) {
        for (const char* in : {"input=mef12", "input=edf12"}) cells.push_back({"H", "op=read", in, threads});
        cells.push_back({"H", "op=convert", "input=mef12", "to=edf", threads});
        cells.push_back({"H", "op=convert", "input=edf12", "to=mefd", threads});
        cells.push_back({"H", "op=convert", "input=mef12", "to=mefd", threads});
    }
    for (const char* in : {"input=mef12", "input=edf12"}) cells.push_back({"H", "op=open", in});
    cells.push_back({"H", "op=convert", "input=mef4", "to=csv"});
    for (const char* to : {"to=edf", "to=mefd"}) cells.push_back({"H", "op=convert", "input=mef48", to});
    for (const char* mode : {"mode=concat", "mode=stack"}) cells.push_back({"H", "op=merge", mode});
    for (const char* jobs : {"jobs=1 threads=1", "jobs=1 threads=2", "jobs=2 threads=2"})
        cells.push_back({"H", "op=batch", std::string(jobs).substr(0, 6), std::string(jobs).substr(7)});
    return cells;
}

Json runHere(int argc, char** argv)
{
    CellArgs args{argv[2], {}};
    for (int i = 3; i < argc; ++i) {
        const char* eq = std::strchr(argv[i], '=');
        if (!eq) lv::bench::fail(std::string("not key=value: ") + argv[i]);
        args.values[std::string(argv[i], static_cast<std::size_t>(eq - argv[i]))] = eq + 1;
    }
    auto it = scenarios().find(args.name);
    if (it == scenarios().end()) lv::bench::fail("no scenario " + args.name);
    Json result = it->second(args);
    result["cell"] = args.name;
    return result;
}

// Runs one cell in a child process; returns its output line.
bool runChild(const std::vector<std::string>& cell)
{
    std::vector<char*> argv{const_cast<char*>("/proc/self/exe"), const_cast<char*>("--cell")};
    for (const std::string& s : cell) argv.push_back(const_cast<char*>(s.c_str()));
    argv.push_back(nullptr);
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        execv("/proc/self/exe", argv.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace

int main(int argc, char** argv)
{
    lv::app::limitAllocatorArenas(); // as the viewer does
    if (argc >= 3 && std::strcmp(argv[1], "--cell") == 0) {
        std::printf("%s\n", runHere(argc, argv).dump().c_str());
        return 0;
    }
    bool quick = false;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0)
            quick = true;
        else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = "," + std::string(argv[++i]) + ",";
        else
            return std::fprintf(stderr, "usage: %s [--only E1,E2,...] [--quick]\n", argv[0]), 2;
    }
    int failed = 0;
    for (const auto& cell : plan(quick)) {
        if (!only.empty() && only.find("," + cell.front() + ",") == std::string::npos) continue;
        if (!runChild(cell)) {
            ++failed;
            std::fprintf(stderr, "cell failed:");
            for (const auto& s : cell) std::fprintf(stderr, " %s", s.c_str());
            std::fprintf(stderr, "\n");
        }
    }
    return failed ? 1 : 0;
}
