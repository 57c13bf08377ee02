// Time-series index file (.tidx): one 56-byte entry per RED block of a segment.
#pragma once

#include "core/Error.h"
#include "formats/mef3/UniversalHeader.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

inline constexpr std::size_t kIndexEntryBytes = 56;

struct IndexEntry {
    std::int64_t fileOffset = 0;  // of the block in the .tdat file
    std::int64_t startTime = 0;   // as stored (the recording time offset not yet applied)
    std::int64_t startSample = 0; // segment- or channel-relative, depending on the writer: not trusted
    std::uint32_t sampleCount = 0;
    std::uint32_t blockBytes = 0;
    std::int32_t maximumSampleValue = 0;
    std::int32_t minimumSampleValue = 0;
    std::uint8_t redFlags = 0;
};

struct TimeSeriesIndex {
    UniversalHeader header;
    std::vector<IndexEntry> entries;
    // Whole entries past the header's count that the body CRC does not cover: left by an append that was
    // interrupted before its commit. They are not read.
    std::size_t uncommittedEntries = 0;
};

// Parses a whole .tidx file and checks its CRCs and entry count.
core::Result<TimeSeriesIndex> parseTimeSeriesIndex(std::span<const std::uint8_t> file, const std::string& path);

// Appends one 56-byte entry to `out`.
void appendIndexEntry(const IndexEntry& entry, std::vector<std::uint8_t>& out);

} // namespace lv::formats::mef3
