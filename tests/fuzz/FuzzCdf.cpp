// libFuzzer target: arbitrary bytes as a CDF file: the magic numbers and a whole-file compressed image, the
// descriptor records (CDR, GDR, VDRs, VXR trees, CPRs, ADRs, AEDRs), every variable's first records (VVRs, CVVRs
// inflated), its numbers and epochs; then the file opened as a recording, every sample read and blocks decoded.
#include "core/Recording.h"
#include "formats/cdf/CdfFile.h"
#include "formats/cdf/CdfRecording.h"
#include "io/ByteSource.h"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto source = lv::io::memorySource(std::vector<std::uint8_t>(data, data + size), "fuzz.cdf");
    auto file = lv::formats::cdf::CdfFile::open(source);
    if (!file) return 0;
    for (const auto& v : file->structure().variables) {
        // What the tree promises: leaves in record order, inside the image.
        for (std::size_t i = 0; i < v.leaves.size(); ++i)
            if (v.leaves[i].dataAt > file->image().size() || (i > 0 && v.leaves[i].first <= v.leaves[i - 1].last))
                __builtin_trap();
        if (v.records() > (std::int64_t{1} << 16)) continue; // what a few MiB hold; the recording reads the rest
        if (lv::formats::cdf::isEpoch(v.type)) {
            auto times = file->times(v);
            if (times && static_cast<std::int64_t>(times->size()) != v.heldRecords()) __builtin_trap();
        } else if (lv::formats::cdf::isNumber(v.type)) {
            (void)file->numbers(v, v.valuesPerRecord() - 1);
        }
    }
    auto recording = lv::formats::cdf::openCdf(source);
    if (!recording) return 0;
    for (const auto& ch : (*recording)->info().channels)
        if (ch.gridLength < 0 || ch.sampleCount > ch.gridLength) __builtin_trap();
    (void)lv::core::readEverySample(**recording, {});
    std::vector<std::int32_t> block; // the viewer's blocks: the first and last of each channel
    for (std::size_t c = 0; c < (*recording)->info().channels.size(); ++c) {
        const auto blocks = (*recording)->blocks(c);
        for (const std::size_t b : {std::size_t{0}, blocks.size() - 1}) {
            if (b >= blocks.size()) continue;
            block.resize(blocks[b].count);
            (void)(*recording)->decodeBlock(c, b, block, {});
        }
    }
    return 0;
}
