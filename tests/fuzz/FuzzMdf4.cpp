// libFuzzer target: arbitrary bytes as an MDF 4 file: its block tree (readStructure, on one and two threads), each
// data group's records (DT/DZ/DL/HL, at most 64 MiB), every channel's numbers or texts from them and the events; then
// the file opened as a recording on two threads (rasters, counts) and every sample read.
#include "decode/ThreadPool.h"
#include "formats/mdf4/Mdf4Data.h"
#include "formats/mdf4/Mdf4Events.h"
#include "formats/mdf4/Mdf4Recording.h"
#include "formats/mdf4/Mdf4Structure.h"
#include "formats/mdf4/Mdf4Text.h"
#include "io/ByteSource.h"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto file = lv::io::memorySource(std::vector<std::uint8_t>(data, data + size), "fuzz.mf4");
    auto s = lv::formats::mdf4::readStructure(*file);
    // The tree read on two threads: the same outcome (which of two lists sharing a block is named may differ).
    static lv::decode::ThreadPool pool(2);
    const auto threaded = lv::formats::mdf4::readStructure(*file, &pool);
    if (s.ok() != threaded.ok() || (s && s->channelCount() != threaded->channelCount())) __builtin_trap();
    if (!s) return 0;
    // What the tree promises: every block it names lies inside the file.
    for (const auto& dg : s->dataGroups) {
        if (dg.offset >= size) __builtin_trap();
        for (const auto& g : dg.groups)
            for (const auto& c : g.channels)
                if (c.offset >= size || (c.hasConversion && c.conversion->offset >= size)) __builtin_trap();
    }
    for (const auto& dg : s->dataGroups) {
        auto records = lv::formats::mdf4::readDataGroupBytes(*file, dg, std::uint64_t{64} << 20);
        if (!records) continue;
        for (const auto& g : dg.groups)
            for (const auto& c : g.channels) {
                auto values = lv::formats::mdf4::channelValues(*file, dg, g, c, *records);
                if (values && values->size() != g.cycleCount) __builtin_trap();
                (void)lv::formats::mdf4::channelSamples(*file, dg, g, c, *records);
            }
    }
    (void)lv::formats::mdf4::readEvents(*file, *s);
    auto recording = lv::formats::mdf4::openMdf4(file, &pool);
    if (!recording) return 0;
    for (const auto& ch : (*recording)->info().channels)
        if (ch.gridLength < 0 || ch.sampleCount > ch.gridLength) __builtin_trap();
    (void)lv::core::readEverySample(**recording, {});
    return 0;
}
