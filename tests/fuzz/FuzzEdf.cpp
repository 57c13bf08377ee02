// libFuzzer target: the EDF/BDF header parser and the TAL parser on arbitrary bytes (the input is a whole
// header, then its last 512 bytes as one annotation signal's area).
#include "formats/edf/EdfHeader.h"
#include "formats/edf/Tal.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::span<const std::uint8_t> bytes(data, size);
    std::vector<std::string> warnings;
    (void)lv::formats::edf::signalCount(bytes, "fuzz");
    auto header = lv::formats::edf::parseHeader(bytes, "fuzz", warnings);
    if (header) {
        for (const auto& s : header->signals) (void)(s.factor * 2 + s.offset);
        (void)header->formatName();
    }
    std::vector<std::string> problems;
    const auto tals = lv::formats::edf::parseTals(bytes.subspan(size > 512 ? size - 512 : 0), &problems);
    for (const auto& t : tals) (void)lv::formats::edf::formatTal(t.onsetUs, t.durationUs, t.texts);
    return 0;
}
