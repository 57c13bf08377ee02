// libFuzzer target: the metadata snapshot reader (parseSnapshot, then every channel's frames and a read of each).
//
// Snapshot frames are zstd frames with checksums, and the file has a checksum of its own: random mutations of a
// real file would stop there. So an input holds the frames' decompressed contents, and the target compresses each,
// assembles the file and stamps magic, version and checksum, so that mutations reach the field decoders. Input:
// one byte k (channel count k % 8), then 2k + 1 frames (the description, k channel frames, k files frames), each
// a 4-byte little-endian length and that many bytes (the last one takes what is left).
// Built with LONGVIEW_FUZZ_SEED_MAKER, the same file is a program that writes such inputs from snapshot files.
#include "core/LittleEndian.h"
#include "core/Recording.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Snapshot.h"
#include "formats/mef3/SnapshotFormat.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>
#include <zstd.h>

namespace mef3 = lv::formats::mef3;
namespace le = lv::core::le;

namespace {

using Bytes = std::vector<std::uint8_t>;

// The frames an input holds: bounded lengths, the last frame taking the rest.
[[maybe_unused]] std::vector<Bytes> framesOf(const std::uint8_t* data, std::size_t size)
{
    std::vector<Bytes> frames;
    if (size == 0) return frames;
    const std::size_t count = 2 * (data[0] % 8) + 1;
    std::size_t at = 1;
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t n = size - at;
        if (i + 1 < count && size - at >= 4) {
            n = std::min<std::size_t>(le::load<std::uint32_t>(data + at), size - at - 4);
            at += 4;
        } else if (i + 1 < count) {
            n = 0;
        }
        frames.emplace_back(data + at, data + at + n);
        at += n;
    }
    return frames;
}

// A snapshot file as saveSnapshot lays it out (Snapshot.cpp): magic, version, checksum, count, sizes, frames.
[[maybe_unused]] Bytes assemble(const std::vector<Bytes>& contents)
{
    std::vector<Bytes> packed;
    for (const Bytes& c : contents) {
        Bytes out(ZSTD_compressBound(c.size()));
        const std::size_t n = ZSTD_compress(out.data(), out.size(), c.data(), c.size(), 1);
        out.resize(ZSTD_isError(n) ? 0 : n);
        packed.push_back(std::move(out));
    }
    Bytes file(24 + 8 * packed.size());
    std::copy_n("LVSNAP01", 8, file.begin());
    le::store<std::uint32_t>(&file[8], mef3::snapshot::kSnapshotVersion);
    le::store<std::uint32_t>(&file[20], static_cast<std::uint32_t>(packed.size() / 2));
    for (std::size_t i = 0; i < packed.size(); ++i) le::store<std::uint64_t>(&file[24 + 8 * i], packed[i].size());
    for (const Bytes& p : packed) file.insert(file.end(), p.begin(), p.end());
    le::store<std::uint64_t>(&file[12], mef3::snapshot::checksum(std::span(file).subspan(20)));
    return file;
}

} // namespace

#ifndef LONGVIEW_FUZZ_SEED_MAKER

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::vector<Bytes> frames = framesOf(data, size);
    if (frames.empty()) return 0;
    // A file name no file can have: a frame that does not decode makes the reader remove its snapshot file.
    auto r = mef3::parseSnapshot(assemble(frames), "/dev/null/fuzz.lvsnap", nullptr);
    if (!r) return 0;
    mef3::MefRecording& recording = **r;
    const lv::core::RecordingInfo& info = recording.info();
    (void)recording.checkSnapshot(); // stats the paths the input names; reads nothing
    for (std::size_t c = 0; c < info.channels.size(); ++c) {
        auto detail = recording.detail(c);
        const auto spans = recording.blocks(c);
        if (detail && spans.size() != (*detail)->blocks.size()) __builtin_trap();
        // A read places the blocks on the slice (the code stats and convert use); the segment check stops it
        // before any data file is read, as the files the input names do not match its stamps.
        std::vector<std::int32_t> out(4096);
        const std::int64_t first = spans.empty() ? 0 : spans.front().first;
        const lv::core::RawSlice slice{c, first, out};
        (void)recording.readRaw(std::span(&slice, 1), {});
    }
    return 0;
}

#else

#include <cstdio>
#include <fstream>
#include <iterator>

// fuzz_snapshot_seeds OUT SESSION...: each session opened with snapshots in OUT, its snapshot as a fuzz_snapshot
// input.
int main(int argc, char** argv)
{
    if (argc < 2) return 2;
    for (int i = 2; i < argc; ++i) {
        if (!mef3::openMef3(argv[i], {"", argv[1]})) continue;
        const std::string file = mef3::snapshotFile(argv[1], argv[i]);
        std::ifstream in(file, std::ios::binary);
        const Bytes b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (b.size() < 24) continue;
        const std::uint32_t channels = le::load<std::uint32_t>(&b[20]);
        if (channels >= 8) continue;
        Bytes input{static_cast<std::uint8_t>(channels)};
        std::size_t at = 24 + 8 * (2 * std::size_t{channels} + 1);
        for (std::size_t f = 0; f < 2 * std::size_t{channels} + 1; ++f) {
            const std::uint64_t n = le::load<std::uint64_t>(&b[24 + 8 * f]);
            Bytes content(ZSTD_getFrameContentSize(&b[at], n));
            ZSTD_decompress(content.data(), content.size(), &b[at], n);
            at += n;
            Bytes length(4);
            le::store<std::uint32_t>(length.data(), static_cast<std::uint32_t>(content.size()));
            if (f < 2 * std::size_t{channels}) input.insert(input.end(), length.begin(), length.end()); // not the last
            input.insert(input.end(), content.begin(), content.end());
        }
        const std::string name = std::string(argv[1]) + "/seed-" + std::to_string(i - 1);
        std::ofstream(name, std::ios::binary)
            .write(reinterpret_cast<const char*>(input.data()), static_cast<std::streamsize>(input.size()));
        std::printf("%s\n", name.c_str());
        in.close();
        std::remove(file.c_str());
    }
    return 0;
}

#endif
