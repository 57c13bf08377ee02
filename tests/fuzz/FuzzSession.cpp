// libFuzzer target: a one-channel MEF session on disk whose metadata, index and block headers take the
// fuzzer's values (CRCs recomputed, so every value reaches the loader), then opened and read the way `stats`
// (analysis::computeStats over the whole recording) and `convert` (readRange of the first seconds) read it:
// metadata checks, block placement, the sample grid and RED decoding on whatever the files claim.
//
// Input: up to 32 edits of 11 bytes: u8 where (0: .tmet section 2 numbers [8712, 8992) and section 3 times
// [13312, 13340); 1: .tidx entries; 2: the first 48 bytes of a RED block header), u16 offset in that region,
// 8 value bytes written there (cut at the region's end). An empty input reads the clean session.
#include "analysis/ChannelStats.h"
#include "core/LittleEndian.h"
#include "core/Recording.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/SegmentWriter.h"
#include "formats/mef3/SessionWriter.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace mef3 = lv::formats::mef3;
namespace le = lv::core::le;

namespace {

using Bytes = std::vector<std::uint8_t>;
constexpr std::size_t kHeader = 1024;
constexpr std::size_t kEntry = 56;
constexpr std::size_t kRedHeader = 304;

struct Session {
    std::string path;
    mef3::SegmentSetup segment;
    Bytes tmet, tidx, tdat; // as written, the base of each input
};

Bytes bytesOf(const std::string& file)
{
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void put(const std::string& file, const Bytes& b)
{
    std::ofstream(file, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

// 256 Hz, 20 blocks of 256 samples, a 2 s pause after the first 2560 samples.
const Session& session()
{
    static const Session s = [] {
        ::setenv("LONGVIEW_NO_SNAPSHOT", "1", 1);
        Session made;
        char dir[] = "/tmp/fuzz-session-XXXXXX";
        if (!::mkdtemp(dir)) std::abort();
        made.path = std::string(dir) + "/f.mefd";
        auto w = mef3::SessionWriter::create(made.path, {});
        if (!w || !(*w)->addChannel({"c", 256.0, "uV", 0.1, ""})) std::abort();
        std::vector<std::int32_t> samples(2560);
        for (std::size_t i = 0; i < samples.size(); ++i) samples[i] = static_cast<std::int32_t>(i % 300) - 150;
        const lv::core::SampleGrid grid{1'600'000'000'000'000, 256.0};
        if (!(*w)->append(0, grid, 0, samples) || !(*w)->append(0, grid, 2560 + 512, samples) || !(*w)->finish())
            std::abort();
        made.segment = (*w)->channelSetup(0);
        made.tmet = bytesOf(made.segment.file("tmet"));
        made.tidx = bytesOf(made.segment.file("tidx"));
        made.tdat = bytesOf(made.segment.file("tdat"));
        return made;
    }();
    return s;
}

std::uint32_t crc(const Bytes& b, std::size_t from, std::size_t to)
{
    return mef3::crc32(std::span(b).subspan(from, to - from));
}

void fixHeader(Bytes& b, std::size_t bodyEnd)
{
    le::store<std::uint32_t>(&b[4], crc(b, kHeader, std::min(bodyEnd, b.size())));
    le::store<std::uint32_t>(&b[0], crc(b, 4, kHeader));
}

// The RED block starts, as the clean index gives them.
std::vector<std::size_t> blockStarts(const Bytes& tidx)
{
    std::vector<std::size_t> starts;
    for (std::size_t at = kHeader; at + kEntry <= tidx.size(); at += kEntry)
        starts.push_back(static_cast<std::size_t>(le::i64(std::span<const std::uint8_t>(tidx), at)));
    return starts;
}

void edit(Bytes& b, std::size_t at, std::size_t regionEnd, const std::uint8_t* value)
{
    const std::size_t n = std::min<std::size_t>(8, regionEnd - at);
    std::memcpy(&b[at], value, n);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const Session& s = session();
    Bytes tmet = s.tmet, tidx = s.tidx, tdat = s.tdat;
    static const std::vector<std::size_t> starts = blockStarts(s.tidx);
    std::vector<std::size_t> touchedBlocks;
    for (std::size_t i = 0; i + 11 <= size && i < 32 * 11; i += 11) {
        const std::uint8_t where = data[i] % 3;
        const std::size_t offset = le::load<std::uint16_t>(data + i + 1);
        const std::uint8_t* value = data + i + 3;
        if (where == 0) {
            const std::size_t k = offset % (280 + 28);
            const std::size_t at = k < 280 ? 8712 + k : 13312 + (k - 280);
            edit(tmet, at, k < 280 ? 8992 : 13340, value);
        } else if (where == 1) {
            const std::size_t at = kHeader + offset % (tidx.size() - kHeader);
            edit(tidx, at, tidx.size(), value);
        } else {
            const std::size_t block = (offset / 48) % starts.size();
            const std::size_t at = starts[block] + offset % 48;
            edit(tdat, at, starts[block] + 48, value);
            touchedBlocks.push_back(block);
        }
    }
    for (std::size_t block : touchedBlocks) {
        const std::size_t at = starts[block];
        const std::uint32_t bytes = le::u32(std::span<const std::uint8_t>(tdat), at + 36);
        if (bytes >= kRedHeader && at + bytes <= tdat.size())
            le::store<std::uint32_t>(&tdat[at], crc(tdat, at + 4, at + bytes));
    }
    fixHeader(tmet, 16384);
    fixHeader(tidx, tidx.size());
    put(s.segment.file("tmet"), tmet);
    put(s.segment.file("tidx"), tidx);
    put(s.segment.file("tdat"), tdat);

    auto opened = mef3::openMef3(s.path, {});
    if (!opened) return 0;
    lv::core::Recording& recording = **opened;
    const lv::core::RecordingInfo& info = recording.info();
    std::vector<std::size_t> channels(info.channels.size());
    for (std::size_t c = 0; c < channels.size(); ++c) channels[c] = c;
    (void)lv::analysis::computeStats(recording, channels, {info.start, info.end}, {});
    (void)lv::core::readRange(recording, channels, {info.start, info.start + 3'000'000}, {});
    (void)recording.takeWarnings();
    return 0;
}
