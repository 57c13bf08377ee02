// The 1024-byte universal header that opens every MEF 3.0 file, with its two CRCs.
#pragma once

#include "core/Error.h"
#include "formats/mef3/Password.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace lv::formats::mef3 {

inline constexpr std::size_t kUniversalHeaderBytes = 1024;
inline constexpr std::int64_t kUutcNoEntry = INT64_MIN;

struct UniversalHeader {
    std::uint32_t headerCrc = 0; // over bytes [4, 1024)
    std::uint32_t bodyCrc = 0;   // over bytes [1024, end of file)
    std::string fileType;        // "tmet", "tidx", "tdat", "rdat", "ridx", ...
    int versionMajor = 0;
    int versionMinor = 0;
    int byteOrder = 1;                     // 1: little-endian
    std::int64_t startTime = kUutcNoEntry; // as stored
    std::int64_t endTime = kUutcNoEntry;   // as stored, exclusive
    std::int64_t numberOfEntries = 0;
    std::int64_t maximumEntrySize = 0;
    std::int32_t segmentNumber = -1;
    std::string channelName;
    std::string sessionName;
    std::string anonymizedName;
    std::array<std::uint8_t, 16> levelUuid{};
    std::array<std::uint8_t, 16> fileUuid{};
    std::array<std::uint8_t, 16> provenanceUuid{};
    ValidationFields passwords;
};

// Parses and checks a universal header: size, file type, version 3.x, little-endian, header CRC.
// `bytes` holds at least the header; `path` names the file in errors.
core::Result<UniversalHeader> parseUniversalHeader(std::span<const std::uint8_t> bytes, const std::string& path,
                                                   const char* expectedType);

// Checks the body CRC of a whole file.
core::Status checkBodyCrc(const UniversalHeader& header, std::span<const std::uint8_t> file, const std::string& path);

// Writes every header field into bytes [0, 1024) of `file` (version 3.0, little-endian); CRCs are left to
// sealFile.
void writeUniversalHeader(const UniversalHeader& header, std::span<std::uint8_t> file);

// Stores the body CRC over [1024, end) at byte 4, then the header CRC over [4, 1024) at byte 0.
void sealFile(std::span<std::uint8_t> file);

} // namespace lv::formats::mef3
