// libFuzzer target: a BrainVision file set from one input (header, marker file and data, separated by lines
// "#--"), parsed, written to a private folder under the names the header gives, opened and read in full as a
// conversion reads it; every block decoded as the viewer does.
#include "formats/brainvision/BvHeader.h"
#include "formats/brainvision/BvMarkers.h"
#include "formats/brainvision/BvRecording.h"

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace bv = lv::formats::brainvision;

std::vector<std::string_view> parts(std::string_view input)
{
    std::vector<std::string_view> out;
    for (std::size_t at = 0; out.size() < 2;) {
        const std::size_t sep = input.find("\n#--\n", at);
        if (sep == std::string_view::npos) break;
        out.push_back(input.substr(at, sep - at));
        input.remove_prefix(sep + 5);
    }
    out.push_back(input);
    out.resize(3);
    return out;
}

// A plain file name (no folders, no "..") to write a part under, else the fallback.
std::string nameOr(const std::string& named, const char* fallback)
{
    const bool plain = !named.empty() && named.size() < 64 && named.find_first_of("/\\:") == std::string::npos &&
                       named != "." && named != "..";
    return plain ? named : fallback;
}

void put(const fs::path& file, std::string_view bytes)
{
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto p = parts(std::string_view(reinterpret_cast<const char*>(data), size));
    const auto span = [](std::string_view s) {
        return std::span(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
    };
    std::vector<std::string> warnings;
    auto header = bv::parseHeader(span(p[0]), "fuzz.vhdr", warnings);
    (void)bv::parseMarkers(span(p[1]), "fuzz.vmrk", warnings);
    if (!header) return 0;
    static const fs::path dir = fs::temp_directory_path() / ("lv-fuzz-bv-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    put(dir / "x.vhdr", p[0]);
    put(dir / nameOr(header->markerFile, "x.vmrk"), p[1]);
    put(dir / nameOr(header->dataFile, "x.eeg"), p[2]);
    auto r = bv::openBrainVision((dir / "x.vhdr").string());
    if (!r) return 0;
    const lv::core::RecordingInfo& info = (*r)->info();
    for (std::size_t c = 0; c < info.channels.size() && c < 64; ++c) {
        std::vector<std::int32_t> out(
            static_cast<std::size_t>(std::min<std::int64_t>(info.channels[c].gridLength, 1 << 16)));
        const lv::core::RawSlice slice{c, 0, out};
        (void)(*r)->readRaw(std::span(&slice, 1), {});
        const auto blocks = (*r)->blocks(c);
        for (std::size_t b = 0; b < blocks.size() && b < 16; ++b) {
            std::vector<std::int32_t> block(blocks[b].count);
            (void)(*r)->decodeBlock(c, b, block, {});
        }
    }
    (void)(*r)->takeWarnings();
    return 0;
}
