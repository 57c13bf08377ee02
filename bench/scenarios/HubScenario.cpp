// H: the conversion hub in the asammdf benchmark's categories (open, get all channels, convert, merge, batch) on
// MEF, EDF+ and MDF 4 inputs, each the real longview-cli command in a fresh process (wall time, peak RSS of that
// process), beside the floors: a plain read of the input's files, a streaming read of every sample through the engine,
// a memcpy of the output's bytes and a plain write (and sync) of as many bytes to a new file. Inputs are written once
// under /tmp/longview-bench/hub.
#include "Mdf4Shape.h"
#include "Scenario.h"

#include "decode/ThreadPool.h"
#include "formats/RecordingOpener.h"

#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lv::bench {

namespace {

namespace fs = std::filesystem;

const std::string kHub = "/tmp/longview-bench/hub";

struct Child {
    double seconds = 0;
    double peakRssMB = 0;
    int status = -1;
};

// Runs the longview-cli with `args` (stdout and stderr to /dev/null), timed, with its own peak RSS.
Child cli(const std::vector<std::string>& args, bool quiet = true)
{
    std::vector<char*> argv{const_cast<char*>(LONGVIEW_CLI_PATH)};
    for (const std::string& s : args) argv.push_back(const_cast<char*>(s.c_str()));
    argv.push_back(nullptr);
    const auto started = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        if (quiet) {
            const int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, 1), ::dup2(null, 2);
        }
        execv(LONGVIEW_CLI_PATH, argv.data());
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    Child c;
    c.seconds = msSince(started) / 1000;
    c.peakRssMB = static_cast<double>(usage.ru_maxrss) / 1024; // KiB on Linux
    c.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return c;
}

void must(const Child& c, const std::string& what)
{
    if (c.status != 0) fail(what + ": exit " + std::to_string(c.status));
}

std::uint64_t bytesUnder(const std::string& path)
{
    if (fs::is_regular_file(path)) return fs::file_size(path);
    std::uint64_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(path))
        if (e.is_regular_file()) n += e.file_size();
    return n;
}

// A synthetic session of `channels` x `hours` at 256 Hz with 1 h segments, written once.
std::string synth(const std::string& name, int channels, double hours, int seed)
{
    const std::string path = kHub + "/" + name + ".mefd";
    if (fs::exists(path)) return path;
    fs::create_directories(fs::path(path).parent_path());
    std::fprintf(stderr, "writing %s (once)\n", path.c_str());
    must(cli({"synth", path, "--channels", std::to_string(channels), "--hours", std::to_string(hours), "--fs", "256",
              "--seed", std::to_string(seed), "--segment-minutes", "60"}),
         "synth " + path);
    return path;
}

// `from` converted once to `name` with `args`.
std::string converted(const std::string& from, const std::string& name, std::vector<std::string> args = {})
{
    const std::string path = kHub + "/" + name;
    if (fs::exists(path)) return path;
    std::vector<std::string> all{"convert", from, path};
    all.insert(all.end(), args.begin(), args.end());
    std::fprintf(stderr, "writing %s (once)\n", path.c_str());
    must(cli(all), "convert " + path);
    return path;
}

std::string input(const std::string& which)
{
    if (!which.empty() && which.front() == '/') return which; // a path of the caller's
    if (which == "mef12") return session("64ch-12h-seg60");
    if (which == "mef48") return synth("64ch-48h", 64, 48, 1);
    if (which == "edf12") return converted(session("64ch-12h-seg60"), "64ch-12h.edf");
    if (which == "mef4") return synth("64ch-4h", 64, 4, 2);
    if (which == "mdf12") return converted(session("64ch-12h-seg60"), "64ch-12h.mf4");
    if (which == "mdf12dt") return converted(session("64ch-12h-seg60"), "64ch-12h-dt.mf4", {"--uncompressed"});
    if (which == "asam" || which == "asamdt") {
        const std::string path = kHub + "/asam-shape" + (which == "asam" ? "" : "-dt") + ".mf4";
        writeAsamShape(path, which == "asam");
        return path;
    }
    fail("no input " + which);
}

// Grid points of every channel, or of its first `hours` when > 0.
double samplesOf(const std::string& path, double hours = 0)
{
    auto r = formats::openRecording({path, "", ""});
    if (!r) fail(r.error().describe());
    const core::RecordingInfo& info = (*r)->info();
    const core::TimeRange range{info.start,
                                hours > 0 ? info.start + static_cast<core::Uutc>(hours * 3600e6) : info.end};
    double n = 0;
    for (const core::ChannelInfo& c : info.channels) n += static_cast<double>(core::sampleSpan(c, range).count);
    return n;
}

// Floor: every byte of the input's files read once with read(2) into a 1 MiB buffer (page cache warm).
Json plainRead(const std::string& path)
{
    std::vector<char> buffer(1 << 20);
    const auto started = std::chrono::steady_clock::now();
    std::uint64_t bytes = 0;
    const auto readFile = [&](const std::string& file) {
        const int fd = ::open(file.c_str(), O_RDONLY);
        for (ssize_t n; (n = ::read(fd, buffer.data(), buffer.size())) > 0;) bytes += static_cast<std::uint64_t>(n);
        ::close(fd);
    };
    if (fs::is_regular_file(path))
        readFile(path);
    else
        for (const auto& e : fs::recursive_directory_iterator(path))
            if (e.is_regular_file()) readFile(e.path().string());
    const double s = msSince(started) / 1000;
    return Json{{"seconds", s}, {"bytes", bytes}, {"GBperSecond", static_cast<double>(bytes) / s / 1e9}};
}

// The engine's full read: every sample of every channel as counts, in chunks of 2 Mi samples across the channels
// (what a streaming consumer or a converter does), on `threads` threads.
Json fullRead(const std::string& path, std::size_t threads)
{
    const auto started = std::chrono::steady_clock::now();
    auto r = formats::openRecording({path, "", ""});
    if (!r) fail(r.error().describe());
    const double opened = msSince(started) / 1000;
    const core::RecordingInfo& info = (*r)->info();
    decode::ThreadPool pool(threads);
    core::ReadControl control;
    control.runner = &pool;
    control.forwardOnly = true;
    const std::int64_t perChunk = std::max<std::int64_t>(1, (std::int64_t{1} << 21) / std::ssize(info.channels));
    std::int64_t longest = 0;
    for (const core::ChannelInfo& c : info.channels) longest = std::max(longest, c.gridLength);
    std::vector<std::vector<std::int32_t>> buffers(info.channels.size());
    double samples = 0;
    for (std::int64_t at = 0; at < longest; at += perChunk) {
        std::vector<core::RawSlice> slices;
        for (std::size_t c = 0; c < info.channels.size(); ++c) {
            const std::int64_t n = std::min(perChunk, info.channels[c].gridLength - at);
            if (n <= 0) continue;
            buffers[c].resize(static_cast<std::size_t>(n));
            slices.push_back({c, at, buffers[c]});
            samples += static_cast<double>(n);
        }
        if (auto s = (*r)->readRaw(slices, control); !s) fail(s.error().describe());
    }
    const double s = msSince(started) / 1000;
    return Json{{"seconds", s},
                {"openSeconds", opened}, // the rest: the reads alone, on `threads`
                {"samples", samples},
                {"samplesPerSecond", samples / s},
                {"threads", pool.threadCount()},
                {"peakRssMB", static_cast<double>(peakRssBytes()) / (1 << 20)}};
}

// Floor: a memcpy of `bytes` (the output's size) in 64 MiB pieces.
double memcpySeconds(std::uint64_t bytes)
{
    std::vector<char> a(64 << 20, 1), b(64 << 20);
    const auto started = std::chrono::steady_clock::now();
    for (std::uint64_t done = 0; done < bytes; done += a.size())
        std::memcpy(b.data(), a.data(), std::min<std::uint64_t>(a.size(), bytes - done));
    return msSince(started) / 1000 + (b[0] == 7 ? 1e-12 : 0);
}

// Floor: `bytes` written with write(2) in 1 MiB pieces to a new file and synced, as a writer's commit does.
double writeSeconds(std::uint64_t bytes)
{
    const std::string path = kHub + "/out/floor.bin";
    std::vector<char> buffer(1 << 20, 1);
    const auto started = std::chrono::steady_clock::now();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    for (std::uint64_t done = 0; done < bytes; done += buffer.size())
        if (::write(fd, buffer.data(), std::min<std::uint64_t>(buffer.size(), bytes - done)) < 0) fail("write floor");
    ::fsync(fd);
    ::close(fd);
    const double s = msSince(started) / 1000;
    fs::remove(path);
    return s;
}

Json timed(const Child& c, double samples, const std::string& output)
{
    Json j{{"seconds", c.seconds}, {"samplesPerSecond", samples / c.seconds}, {"peakRssMB", c.peakRssMB}};
    if (!output.empty()) {
        const std::uint64_t bytes = bytesUnder(output);
        fs::remove_all(output); // its pages go before the floor is written
        j["outputMB"] = static_cast<double>(bytes) / (1 << 20);
        j["memcpyOutputSeconds"] = memcpySeconds(bytes);
        j["writeOutputSeconds"] = writeSeconds(bytes);
    }
    return j;
}

// An output path under the hub's output folder, with nothing left there by an earlier cell (side files too).
std::string fresh(const std::string& name)
{
    fs::remove_all(kHub + "/out");
    fs::create_directories(kHub + "/out");
    return kHub + "/out/" + name;
}

} // namespace

Json runHub(const CellArgs& a)
{
    const std::string op = a.text("op", "convert");
    const std::string threads = std::to_string(static_cast<int>(a.number("threads", 0)));
    const std::vector<std::string> threadArgs =
        threads == "0" ? std::vector<std::string>{} : std::vector<std::string>{"--threads", threads};
    Json out{{"op", op}, {"threads", threads == "0" ? "all" : threads}};
    if (op == "floor" || op == "read" || op == "open" || op == "convert") {
        const std::string in = input(a.text("input", "mef12"));
        out["input"] = in;
        warm(in);
        if (op == "floor") return out.update(plainRead(in)), out;
        if (op == "read") return out.update(fullRead(in, static_cast<std::size_t>(a.number("threads", 0)))), out;
        if (op == "open") {
            setenv("LONGVIEW_NO_SNAPSHOT", "1", 1);
            return out.update(timed(cli({"info", in}), samplesOf(in), "")), out;
        }
        const std::string target = fresh("converted." + a.text("to", "edf"));
        std::vector<std::string> args{"convert", in, target};
        args.insert(args.end(), threadArgs.begin(), threadArgs.end());
        const double hours = a.number("hours", 0); // > 0: the first hours only
        if (hours > 0) args.insert(args.end(), {"--end", "+" + std::to_string(hours * 3600)});
        const Child c = cli(args);
        must(c, "convert");
        out["to"] = a.text("to", "edf");
        if (hours > 0) out["hours"] = hours;
        out.update(timed(c, samplesOf(in, hours), target));
        fs::remove_all(target);
        return out;
    }
    if (op == "merge") {
        const std::string mode = a.text("mode", "concat");
        std::vector<std::string> parts;
        const std::string source = input("mef12");
        const bool mdf = a.text("input", "mef12") == "mdf12"; // two 6 h halves of mdf12, as MDF 4 files
        for (int i = 0; i < (mdf ? 2 : 3); ++i) {
            const int hours = mdf ? 6 : 4;
            const std::vector<std::string> range = {"--start", "+" + std::to_string(i * hours * 3600), "--end",
                                                    "+" + std::to_string((i + 1) * hours * 3600)};
            parts.push_back(mdf                ? converted(source, "half" + std::to_string(i) + ".mf4", range)
                            : mode == "concat" ? converted(source, "part" + std::to_string(i) + ".mefd", range)
                                               : synth("stack" + std::to_string(i), 64, 4, 11 + i));
        }
        for (const std::string& p : parts) warm(p);
        const std::string target = fresh("merged." + a.text("to", "mefd"));
        std::vector<std::string> args{"merge", "--mode", mode};
        args.insert(args.end(), parts.begin(), parts.end());
        args.push_back(target);
        args.insert(args.end(), threadArgs.begin(), threadArgs.end());
        const Child c = cli(args);
        must(c, "merge");
        double samples = 0;
        for (const std::string& p : parts) samples += samplesOf(p);
        out["mode"] = mode;
        out.update(timed(c, samples, target));
        fs::remove_all(target);
        return out;
    }
    if (op == "batch") {
        std::vector<std::string> inputs;
        double samples = 0;
        for (int i = 0; i < 24; ++i) {
            inputs.push_back(synth("batch/b" + std::to_string(100 + i), 64, 0.5, 100 + i));
            samples += samplesOf(inputs.back());
            warm(inputs.back());
        }
        const std::string target = fresh("batch");
        std::vector<std::string> args{"batch",
                                      "--to",
                                      a.text("to", "edf"),
                                      "--out",
                                      target,
                                      "--jobs",
                                      std::to_string(static_cast<int>(a.number("jobs", 1)))};
        args.insert(args.end(), threadArgs.begin(), threadArgs.end());
        args.insert(args.end(), inputs.begin(), inputs.end());
        const Child c = cli(args);
        must(c, "batch");
        out["jobs"] = static_cast<int>(a.number("jobs", 1));
        out.update(timed(c, samples, target));
        fs::remove_all(target);
        return out;
    }
    fail("no hub op " + op);
}

} // namespace lv::bench
