// libFuzzer target: arbitrary bytes as a tar archive, indexed by lv::io::indexTar over a memory source.
#include "io/ByteSource.h"
#include "io/TarIndex.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const lv::io::ByteSourcePtr archive =
        lv::io::memorySource(std::vector<std::uint8_t>(data, data + size), "fuzz.tar");
    auto members = lv::io::indexTar(*archive);
    if (!members) return 0;
    // TarIndex.h promises byte ranges inside the archive and normalised paths; check it and read each member's start.
    for (const lv::io::TarMember& m : *members) {
        if (m.dataOffset > archive->size() || m.size > archive->size() - m.dataOffset) __builtin_trap();
        if (m.path.empty() || m.path.rfind("./", 0) == 0 || m.path.back() == '/') __builtin_trap();
        std::array<std::uint8_t, 16> head{};
        const std::size_t n = m.size < head.size() ? static_cast<std::size_t>(m.size) : head.size();
        auto member = lv::io::subrange(archive, m.dataOffset, m.size, m.path);
        if (!member->readAt(0, std::span(head).first(n)).ok()) __builtin_trap();
    }
    return 0;
}
