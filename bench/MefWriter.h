// Minimal MEF 3.0 segment writer for benchmark fixtures: lossless RED blocks into .tdat, .tidx and .tmet files.
#pragma once

#include "formats/mef3/RedEncoder.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lv::bench {

struct SegmentSpec {
    std::string session;          // session name (no extension)
    std::string channel;          // channel name (no extension)
    int acquisitionChannel = 1;
    double fs = 256.0;
    double uvPerCount = 1.0;      // units conversion factor
    std::int64_t startTime = 0;   // true uUTC of the first sample
    std::int64_t recordingTimeOffset = 0; // stored times are -(true - offset), as meflib writes them
};

// Segment 0 of one channel: blocks are appended in time order, then the three files are written at once.
class SegmentWriter {
public:
    explicit SegmentWriter(SegmentSpec spec);

    // Encodes `samples` as the next block; it starts right after the previous one on the sample grid.
    void addBlock(std::span<const std::int32_t> samples);

    // Writes <base>.tdat, <base>.tidx and <base>.tmet; false (with errno set) if a file cannot be written.
    bool write(const std::string& base) const;

private:
    struct Entry {
        std::int64_t fileOffset = 0;
        std::int64_t startTime = 0; // stored
        std::int64_t startSample = 0;
        std::uint32_t samples = 0;
        formats::mef3::RedBlockSummary block;
    };

    std::int64_t storedTime(std::int64_t trueTime) const;
    std::int64_t trueTimeOfSample(std::int64_t sample) const;
    std::vector<std::uint8_t> universalHeader(const char* type, std::int64_t entries, std::int64_t maxEntry) const;
    std::vector<std::uint8_t> metadataFile() const;
    std::vector<std::uint8_t> indexFile() const;

    SegmentSpec m_spec;
    formats::mef3::RedEncoder m_encoder;
    std::vector<std::uint8_t> m_data; // the whole .tdat, universal header included
    std::vector<Entry> m_entries;
    std::int64_t m_samples = 0;
};

} // namespace lv::bench
