// libFuzzer target: arbitrary bytes as a segment's .tdat, rebuilt by recovery; the recovered session must then
// open and read back whole (never crash, hang, or leave a session the reader refuses).
#include "core/Recording.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/SegmentWriter.h"
#include "formats/mef3/SessionWriter.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace mef3 = lv::formats::mef3;

namespace {

struct Session {
    std::string path;
    mef3::SegmentSetup segment;
    std::vector<char> tidx, tmet; // as written, restored before each input
};

std::vector<char> bytesOf(const std::string& file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void put(const std::string& file, const char* data, std::size_t size)
{
    std::ofstream(file, std::ios::binary | std::ios::trunc).write(data, static_cast<std::streamsize>(size));
}

// A one-channel session written once per process; its segment files are what each input replaces.
const Session& session()
{
    static const Session s = [] {
        Session made;
        char dir[] = "/tmp/fuzz-recover-XXXXXX";
        if (!::mkdtemp(dir)) std::abort();
        made.path = std::string(dir) + "/f.mefd";
        auto w = mef3::SessionWriter::create(made.path, {});
        if (!w || !(*w)->addChannel({"c", 256.0, "uV", 0.1, ""})) std::abort();
        std::vector<std::int32_t> samples(5000);
        for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<std::int32_t>(i % 300) - 150;
        if (!(*w)->append(0, {1'600'000'000'000'000, 256.0}, 0, samples) || !(*w)->finish()) std::abort();
        made.segment = (*w)->channelSetup(0);
        made.tidx = bytesOf(made.segment.file("tidx"));
        made.tmet = bytesOf(made.segment.file("tmet"));
        return made;
    }();
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size > (1u << 20)) return 0;
    const Session& s = session();
    put(s.segment.file("tdat"), reinterpret_cast<const char*>(data), size);
    put(s.segment.file("tidx"), s.tidx.data(), s.tidx.size());
    put(s.segment.file("tmet"), s.tmet.data(), s.tmet.size());
    mef3::SegmentSetup setup = s.segment;
    setup.startSample = 0;
    auto recovered = mef3::SegmentWriter::recover(setup);
    if (!recovered) return 0; // e.g. a data file without a header: refused, nothing to read
    auto opened = mef3::openMef3(s.path, {});
    if (!opened) __builtin_trap(); // a recovered session must open
    const lv::core::ChannelInfo& ch = (*opened)->info().channels.at(0);
    if (ch.sampleCount != recovered->samplesKept) __builtin_trap();
    const std::size_t channels[] = {0};
    if (ch.sampleCount > 0 && !lv::core::readRange(**opened, channels, {ch.start, ch.end}, {})) __builtin_trap();
    return 0;
}
