// MefRecording::decodeBlocks: blocks of any channels read one by one, then decoded side by side on the RED lanes.
#include "formats/mef3/MefRecording.h"

#include "formats/mef3/RedBlock.h"

#include <algorithm>

namespace lv::formats::mef3 {

namespace {

// A block read and checked, waiting for the batch's decode.
struct Prepared {
    core::BlockDecode* decode = nullptr;
    const BlockRef* ref = nullptr;
    const io::ByteSource* file = nullptr;
};

} // namespace

void MefRecording::decodeBlocks(std::span<core::BlockDecode> blocks, const core::ReadControl& control) const
{
    std::vector<std::vector<std::uint8_t>> bytes; // each prepared block's own, alive until the batch is decoded
    std::vector<RedTask> tasks;
    std::vector<Prepared> prepared;
    bytes.reserve(blocks.size());
    // A failed block reads as missing when damaged blocks may be skipped, as in decodeBlock.
    auto failed = [&](core::BlockDecode& d, const BlockRef& b, const io::ByteSource& file, core::Error e) {
        d.status = blockFailed(d.channel, b, file, std::move(e), control);
        if (d.status.ok()) std::fill_n(d.out.begin(), b.sampleCount, core::kNoSample);
    };
    for (core::BlockDecode& d : blocks) {
        auto ref = blockToDecode(d.channel, d.block, d.out.size());
        if (!ref) {
            d.status = ref.error();
            continue;
        }
        const BlockRef& b = **ref;
        const io::ByteSource& file = *m_details[d.channel].dataFiles[b.segment];
        auto read = file.read(static_cast<std::uint64_t>(b.fileOffset), b.blockBytes);
        if (!read) {
            d.status = read.error();
            continue;
        }
        bytes.push_back(std::move(*read));
        auto header = checkBlock(b, bytes.back(), control.verifyCrc);
        if (!header) {
            failed(d, b, file, header.error());
            continue;
        }
        d.status = {};
        tasks.push_back(RedTask{*header, bytes.back(), d.out.first(b.sampleCount), {}});
        prepared.push_back({&d, &b, &file});
    }
    decodeRedBatch(tasks);
    for (std::size_t t = 0; t < tasks.size(); ++t)
        if (!tasks[t].status.ok())
            failed(*prepared[t].decode, *prepared[t].ref, *prepared[t].file, tasks[t].status.error());
}

} // namespace lv::formats::mef3
