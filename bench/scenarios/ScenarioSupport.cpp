// Percentiles, sessions, page-cache eviction and residency, RSS, and the page round trip used by the scenarios.
#include "Scenario.h"

#include "convert/SynthExport.h"
#include "decode/ThreadPool.h"
#include "io/TarWriter.h"

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <future>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

namespace lv::bench {

namespace fs = std::filesystem;

double CellArgs::number(const std::string& key, double fallback) const
{
    auto it = values.find(key);
    return it == values.end() ? fallback : std::stod(it->second);
}

std::string CellArgs::text(const std::string& key, const std::string& fallback) const
{
    auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
}

Json Series::summary() const
{
    if (ms.empty()) return Json{{"n", 0}};
    std::vector<double> s = ms;
    std::sort(s.begin(), s.end());
    auto at = [&](double q) { return s[std::min(s.size() - 1, static_cast<std::size_t>(q * (s.size() - 1) + 0.5))]; };
    double sum = 0;
    for (double v : s) sum += v;
    return Json{{"n", s.size()},   {"p50", at(0.50)}, {"p95", at(0.95)},
                {"p99", at(0.99)}, {"max", s.back()}, {"mean", sum / static_cast<double>(s.size())}};
}

void fail(const std::string& what)
{
    std::fprintf(stderr, "scenario failed: %s\n", what.c_str());
    std::exit(2);
}

namespace {

struct SessionSpec {
    std::size_t channels;
    double hours;
    double segmentMinutes;
    const char* dir; // under /tmp/longview-bench; shared with longview-bench-view where the session is the same
};

const std::map<std::string, SessionSpec>& specs()
{
    static const std::map<std::string, SessionSpec> s{
        {"64ch-12h-seg60", {64, 12, 60, "synth-64ch-12h-256Hz-seg600min-v1"}},
        {"64ch-12h-seg4.5", {64, 12, 4.5, "synth-64ch-12h-256Hz-seg45min-v1"}}, // 10,240 segments in all
        {"128ch-4h", {128, 4, 60, "synth-128ch-4h-256Hz-seg60min-v1"}},
        {"64ch-24h", {64, 24, 0, "synth-64ch-24h-256Hz-seed1-v1"}},
    };
    return s;
}

void writeSession(const SessionSpec& spec, const std::string& path)
{
    std::fprintf(stderr, "writing %s (once)\n", path.c_str());
    decode::ThreadPool pool;
    convert::SynthOptions o;
    o.channels = spec.channels, o.hours = spec.hours, o.segmentMinutes = spec.segmentMinutes;
    core::ReadControl control;
    control.runner = &pool;
    if (auto s = convert::writeSynthSession(o, path, control); !s) fail(s.error().describe());
}

} // namespace

std::string session(const std::string& which, bool tar)
{
    auto it = specs().find(which);
    if (it == specs().end()) fail("no session " + which);
    const std::string dir = std::string("/tmp/longview-bench/") + it->second.dir;
    const std::string path = dir + "/s.mefd";
    if (!fs::exists(path)) {
        fs::create_directories(dir);
        writeSession(it->second, path);
    }
    if (!tar) return path;
    const std::string archive = dir + "/s.mefd.tar";
    if (!fs::exists(archive))
        if (auto s = io::writeTar(path, archive, {}); !s) fail(s.error().describe());
    return archive;
}

namespace {

template <typename F>
void forEachFile(const std::string& path, F f)
{
    if (fs::is_regular_file(path)) return f(path);
    for (const auto& e : fs::recursive_directory_iterator(path))
        if (e.is_regular_file()) f(e.path().string());
}

} // namespace

double evict(const std::string& path)
{
    std::uint64_t pages = 0, resident = 0;
    const long pageSize = sysconf(_SC_PAGESIZE);
    forEachFile(path, [&](const std::string& file) {
        const int fd = ::open(file.c_str(), O_RDONLY);
        if (fd < 0) return;
        ::fdatasync(fd);
        ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        const off_t size = ::lseek(fd, 0, SEEK_END);
        if (size > 0) {
            void* map = ::mmap(nullptr, static_cast<std::size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
            if (map != MAP_FAILED) {
                std::vector<unsigned char> v((static_cast<std::size_t>(size) + pageSize - 1) / pageSize);
                if (::mincore(map, static_cast<std::size_t>(size), v.data()) == 0)
                    for (unsigned char b : v) resident += b & 1;
                pages += v.size();
                ::munmap(map, static_cast<std::size_t>(size));
            }
        }
        ::close(fd);
    });
    return pages ? static_cast<double>(resident) / static_cast<double>(pages) : 0.0;
}

std::uint64_t warm(const std::string& path)
{
    std::uint64_t bytes = 0;
    std::vector<char> buffer(1 << 20);
    forEachFile(path, [&](const std::string& file) {
        const int fd = ::open(file.c_str(), O_RDONLY);
        if (fd < 0) return;
        for (ssize_t n; (n = ::read(fd, buffer.data(), buffer.size())) > 0;) bytes += static_cast<std::uint64_t>(n);
        ::close(fd);
    });
    return bytes;
}

std::size_t rssBytes()
{
    long pages = 0, resident = 0;
    if (FILE* f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
        std::fclose(f);
    }
    return static_cast<std::size_t>(resident) * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::size_t peakRssBytes()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<std::size_t>(u.ru_maxrss) * 1024;
}

std::unique_ptr<view::ViewSession> openView(const std::string& path, const view::ViewOptions& options)
{
    auto opened = view::ViewSession::open(path, options);
    if (!opened) fail(opened.error().describe());
    return std::move(*opened);
}

double showAndAssemble(view::ViewSession& s, cache::PageLoader& loader, const cache::Page& page)
{
    const auto started = std::chrono::steady_clock::now();
    std::promise<cache::RequestResult> done;
    loader.show(page, [&done](const cache::RequestResult& r) { done.set_value(r); });
    const cache::RequestResult r = done.get_future().get();
    if (r.outcome == cache::Outcome::Failed) fail(r.error->describe());
    std::vector<std::int32_t> samples;
    for (std::size_t c : page.channels) {
        const core::SampleGrid grid = s.info().channels[c].grid();
        const std::int64_t first = grid.firstIndexAtOrAfter(page.range.start);
        samples.resize(static_cast<std::size_t>(grid.firstIndexAtOrAfter(page.range.end) - first));
        if (auto st = cache::readThroughCache(s.context(), c, first, samples, {}); !st) fail(st.error().describe());
    }
    return msSince(started);
}

} // namespace lv::bench
