// Test child: appends ten-second chunks to a session and prints "committed N" (samples per channel) after each
// commit. The crash test kills it with SIGKILL at random moments.
// Usage: mef3_append_child SESSION CHANNELS APPENDS full|fast   (APPENDS 0 with a new SESSION creates it)
#include "AppendPattern.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/SessionWriter.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

using namespace lv;

namespace {

int failWith(const core::Error& e)
{
    std::printf("error: %s\n", e.describe().c_str());
    return 1;
}

// Samples stored per channel (the pattern has no gaps, so this is also the next index).
std::vector<std::int64_t> storedSamples(const std::string& path, std::size_t channels)
{
    std::vector<std::int64_t> counts(channels, 0);
    auto r = formats::mef3::openMef3(path, {});
    if (!r) return counts;
    for (std::size_t c = 0; c < channels && c < (*r)->info().channels.size(); ++c)
        counts[c] = (*r)->info().channels[c].sampleCount;
    return counts;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 5) return 2;
    const std::string path = argv[1];
    const std::size_t channels = std::strtoul(argv[2], nullptr, 10);
    const int appends = std::atoi(argv[3]);
    formats::mef3::WriterOptions options;
    options.durability =
        std::strcmp(argv[4], "full") == 0 ? formats::mef3::Durability::Full : formats::mef3::Durability::Fast;
    const core::SampleGrid grid{test::kAppendStart, test::kAppendFs};
    if (!std::filesystem::exists(path)) {
        auto w = formats::mef3::SessionWriter::create(path, options);
        if (!w) return failWith(w.error());
        for (std::size_t c = 0; c < channels; ++c)
            if (auto added = (*w)->addChannel({"c" + std::to_string(c), test::kAppendFs, "uV", 0.1, ""}); !added)
                return failWith(added.error());
        if (auto done = (*w)->finish(); !done) return failWith(done.error());
        std::printf("created\n");
        return 0;
    }
    std::vector<std::int64_t> next = storedSamples(path, channels);
    auto w = formats::mef3::SessionWriter::open(path, options);
    if (!w) return failWith(w.error());
    std::vector<std::int32_t> chunk(test::kSamplesPerAppend);
    for (int a = 0; a < appends; ++a) {
        for (std::size_t c = 0; c < channels; ++c) {
            for (std::int64_t i = 0; i < test::kSamplesPerAppend; ++i)
                chunk[static_cast<std::size_t>(i)] = test::appendSample(c, next[c] + i);
            if (auto s = (*w)->append(c, grid, next[c], chunk); !s) return failWith(s.error());
            next[c] += test::kSamplesPerAppend;
        }
        if (auto s = (*w)->commit(); !s) return failWith(s.error());
        std::printf("committed %lld\n", static_cast<long long>(*std::min_element(next.begin(), next.end())));
        std::fflush(stdout);
    }
    if (auto s = (*w)->finish(); !s) return failWith(s.error());
    return 0;
}
