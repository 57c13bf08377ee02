// Writes the synthetic benchmark session channel by channel, caches it by parameters, and verifies it decodes.
#include "BenchSession.h"

#include "EegSignal.h"

#include "core/Recording.h"
#include "decode/ThreadPool.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/SessionWriter.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace lv::bench {

namespace {

namespace fs = std::filesystem;

const char* const kCacheRoot = "/tmp/longview-bench";
const char* const kSessionName = "bench";
constexpr std::int64_t kStartTime = 1704096000000000; // 2024-01-01T08:00:00Z

[[noreturn]] void fail(const std::string& what)
{
    std::fprintf(stderr, "\n*** benchmark session FAILED: %s ***\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

std::string channelName(int c)
{
    char name[16];
    std::snprintf(name, sizeof name, "ch%02d", c + 1);
    return name;
}

std::string segmentBase(const std::string& mefd, int c)
{
    const std::string ch = channelName(c);
    return mefd + "/" + ch + ".timd/" + ch + "-000000.segd/" + ch + "-000000";
}

// Writes every channel under `dir` with the engine's SessionWriter and returns the per-channel sample hashes.
std::vector<std::uint64_t> writeSession(const SessionSpec& spec, const std::string& dir, std::int64_t samples)
{
    const std::string mefd = dir + "/" + kSessionName + ".mefd";
    decode::ThreadPool pool;
    auto writer = formats::mef3::SessionWriter::create(mefd, {spec.blockSeconds, "", "", &pool});
    if (!writer) fail(writer.error().describe());
    std::vector<std::uint64_t> hashes;
    const core::SampleGrid grid{kStartTime, spec.fs};
    for (int c = 0; c < spec.channels; ++c) {
        const std::vector<std::int32_t> counts =
            quantise(eegMicrovolts(static_cast<std::size_t>(samples), spec.fs, 1000 + c), spec.uvPerCount);
        hashes.push_back(hashSamples(counts.data(), counts.size()));
        auto channel = (*writer)->addChannel({channelName(c), spec.fs, "uV", spec.uvPerCount, ""});
        if (!channel) fail(channel.error().describe());
        if (auto s = (*writer)->append(*channel, grid, 0, counts); !s.ok()) fail(s.error().describe());
    }
    if (auto s = (*writer)->finish(); !s.ok()) fail(s.error().describe());
    return hashes;
}

} // namespace

std::string SessionSpec::key() const
{
    char key[128];
    std::snprintf(key, sizeof key, "mef3-%dch-%gs-%gHz-%gnV-%gsblk-v4", channels, seconds, fs, uvPerCount * 1000.0,
                  blockSeconds);
    return key;
}

std::uint64_t hashSamples(const std::int32_t* samples, std::size_t count, std::uint64_t hash)
{
    for (std::size_t i = 0; i < count; ++i) {
        const auto v = static_cast<std::uint32_t>(samples[i]);
        for (int shift = 0; shift < 32; shift += 8) hash = (hash ^ ((v >> shift) & 0xFFu)) * 0x100000001b3ull;
    }
    return hash;
}

BenchSession ensureSession(const SessionSpec& spec)
{
    BenchSession session;
    session.spec = spec;
    session.samplesPerChannel = std::llround(spec.seconds * spec.fs);
    const std::string dir = std::string(kCacheRoot) + "/" + spec.key();
    session.path = dir + "/" + kSessionName + ".mefd";
    for (int c = 0; c < spec.channels; ++c) session.dataFiles.push_back(segmentBase(session.path, c) + ".tdat");

    const std::string hashFile = dir + "/hashes.txt";
    if (!fs::exists(hashFile)) {
        std::fprintf(stderr, "writing benchmark session %s ...\n", dir.c_str());
        const std::string partial = dir + ".partial-" + std::to_string(::getpid());
        fs::remove_all(partial);
        fs::create_directories(partial);
        const std::vector<std::uint64_t> hashes = writeSession(spec, partial, session.samplesPerChannel);
        std::ofstream out(partial + "/hashes.txt");
        for (std::uint64_t h : hashes) out << h << '\n';
        if (!out.flush()) fail("cannot write " + partial + "/hashes.txt");
        out.close();
        std::error_code ec;
        fs::rename(partial, dir, ec); // atomic; if another process got there first, keep its copy
        if (ec) fs::remove_all(partial);
    }
    std::ifstream in(hashFile);
    for (std::uint64_t h; in >> h;) session.channelHashes.push_back(h);
    if (session.channelHashes.size() != static_cast<std::size_t>(spec.channels)) fail("bad cache file " + hashFile);
    return session;
}

std::vector<core::TimeRange> timeChunks(const core::RecordingInfo& info, double seconds)
{
    std::vector<core::TimeRange> chunks;
    const auto step = static_cast<core::Uutc>(std::llround(seconds * 1e6));
    for (core::Uutc t = info.start; t < info.end; t += step) chunks.push_back({t, std::min(t + step, info.end)});
    return chunks;
}

void verifySession(const BenchSession& session)
{
    auto opened = formats::mef3::openMef3(session.path, {});
    if (!opened) fail("openMef3: " + opened.error().describe());
    const core::RecordingInfo& info = (*opened)->info();
    if (info.channels.size() != session.channelHashes.size()) fail("wrong channel count");
    std::vector<std::size_t> all;
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        const core::ChannelInfo& ch = info.channels[c];
        if (ch.gridLength != session.samplesPerChannel || ch.sampleCount != session.samplesPerChannel ||
            ch.fs != session.spec.fs || ch.conversionFactor != session.spec.uvPerCount || !ch.gaps.empty() ||
            ch.start != kStartTime)
            fail("channel " + ch.name + " is described wrongly");
        all.push_back(c);
    }
    decode::ThreadPool pool;
    core::ReadControl control;
    control.runner = &pool;
    control.verifyCrc = true;
    std::vector<std::uint64_t> hashes(all.size(), 0xcbf29ce484222325ull);
    std::vector<std::int64_t> seen(all.size(), 0);
    for (const core::TimeRange& range : timeChunks(info, 600.0)) {
        auto read = core::readRange(**opened, all, range, control);
        if (!read) fail("readRange: " + read.error().describe());
        for (std::size_t c = 0; c < all.size(); ++c) {
            const core::ChannelSamples& s = (*read)[c];
            if (s.firstSample != seen[c]) fail("chunks do not follow each other");
            hashes[c] = hashSamples(s.raw.data(), s.raw.size(), hashes[c]);
            seen[c] += static_cast<std::int64_t>(s.raw.size());
        }
    }
    for (std::size_t c = 0; c < all.size(); ++c)
        if (hashes[c] != session.channelHashes[c] || seen[c] != session.samplesPerChannel)
            fail("channel " + info.channels[c].name + " decodes to other samples than were written");
}

} // namespace lv::bench
