// Time-series metadata file (.tmet): sections 1-3, decrypted with the access a password gives.
#pragma once

#include "core/Error.h"
#include "formats/mef3/Password.h"
#include "formats/mef3/UniversalHeader.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

inline constexpr std::size_t kMetadataFileBytes = 16384;
inline constexpr std::int64_t kSamplingFrequencyOffset = 8720; // of section 2's sampling_frequency in the file

struct TimeSeriesSection2 {
    std::string channelDescription;
    std::string sessionDescription;
    std::int64_t recordingDuration = 0;
    std::string referenceDescription;
    std::int64_t acquisitionChannelNumber = 0;
    double samplingFrequency = -1.0;
    double lowFrequencyFilter = -1.0;
    double highFrequencyFilter = -1.0;
    double notchFilter = -1.0;
    double acLineFrequency = -1.0;
    double unitsConversionFactor = 0.0;
    std::string unitsDescription;
    double maximumNativeSampleValue = 0.0;
    double minimumNativeSampleValue = 0.0;
    std::int64_t startSample = 0;
    std::int64_t numberOfSamples = 0;
    std::int64_t numberOfBlocks = 0;
    std::int64_t maximumBlockBytes = 0;
    std::uint32_t maximumBlockSamples = 0;
    std::uint32_t maximumDifferenceBytes = 0;
    std::int64_t blockInterval = 0;
    std::int64_t numberOfDiscontinuities = 0;
    std::int64_t maximumContiguousBlocks = 0;
    std::int64_t maximumContiguousBlockBytes = 0;
    std::int64_t maximumContiguousSamples = 0;
};

struct Section3 {
    std::int64_t recordingTimeOffset = kUutcNoEntry;
    std::int64_t dstStartTime = kUutcNoEntry;
    std::int64_t dstEndTime = kUutcNoEntry;
    std::int32_t gmtOffset = 0;
    std::string subjectName1;
    std::string subjectName2;
    std::string subjectId;
    std::string recordingLocation;
};

struct TimeSeriesMetadata {
    UniversalHeader header;
    int section2Encryption = 0; // as stored: > 0 encrypted with that level, <= 0 plain
    int section3Encryption = 0;
    bool section2Readable = false;
    bool section3Readable = false;
    TimeSeriesSection2 section2;
    Section3 section3;
};

// Parses a whole .tmet file: universal header, body CRC, and the sections `access` can decrypt.
core::Result<TimeSeriesMetadata> parseTimeSeriesMetadata(std::span<const std::uint8_t> file, const std::string& path,
                                                         const Access& access);

// The 16384-byte .tmet file of `m`: header (file type set here), sections 1-3, sections with a positive
// encryption level encrypted with that level's key from `keys`, CRCs sealed.
std::vector<std::uint8_t> serializeTimeSeriesMetadata(const TimeSeriesMetadata& m, const Access& keys);

} // namespace lv::formats::mef3
