// Test helpers for MDF 4: mdf-check (../shared/tools) run at test time, its dumps parsed, channels found by name.
#pragma once

#include "formats/mdf4/Mdf4Structure.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lv::test::mdf4 {

std::string dataDir();  // ../shared/testdata/mdf4
std::string mdfCheck(); // ../shared/tools/mdf-check

// One dump row: the time and a number, a text (a JSON string in the dump) or INVALID.
struct DumpRow {
    double time = 0;
    bool invalid = false;
    std::optional<std::string> text;
    double number = 0;
};

// Parses "time,value" CSV (mdf-check's --dump output or an expected/*.csv file).
std::vector<DumpRow> parseDump(const std::string& csv);
std::vector<DumpRow> readDumpFile(const std::string& path);
// A dump of numbers as (time, value) pairs, INVALID as NaN.
std::vector<std::pair<double, double>> numericDump(const std::string& path);

// A reference file's bytes (dataDir()/name), to damage a copy of.
std::vector<std::uint8_t> referenceBytes(const std::string& name);
// readStructure of `bytes` named `path`: the error described, or "no error".
std::string structureError(std::vector<std::uint8_t> bytes, const std::string& path);
// readStructure of `bytes` named `path`, which must succeed.
formats::mdf4::Structure structureOf(const std::vector<std::uint8_t>& bytes, const std::string& path);

// `mdf-check FILE --dump CHANNEL --group N`; `status` gets the exit status.
std::vector<DumpRow> dump(const std::string& file, const std::string& channel, std::size_t group, int* status);

// `mdf-check FILE --json`, the raw JSON text.
std::string listingJson(const std::string& file);

// A channel of a structure with its groups, and the channel group's number as mdf-check counts them.
struct Located {
    const formats::mdf4::DataGroup* dg = nullptr;
    const formats::mdf4::ChannelGroup* group = nullptr;
    const formats::mdf4::Channel* channel = nullptr;
    std::size_t groupNumber = 0;
};
Located locate(const formats::mdf4::Structure& s, const std::string& name);
std::vector<Located> allChannels(const formats::mdf4::Structure& s);

} // namespace lv::test::mdf4
