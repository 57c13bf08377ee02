// MEF 3.0 records (.rdat/.ridx): Note, Seiz, EDFA, SyLg, Curs, Epoc, CSti, ESti read fully; others listed.
#pragma once

#include "core/Error.h"
#include "formats/mef3/Password.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

inline constexpr std::size_t kRecordHeaderBytes = 24;

struct Record {
    std::string type;      // "Note", "Seiz", ...
    std::int64_t time = 0; // as stored (the recording time offset not yet applied)
    std::int64_t durationUs = 0;
    std::string text;     // the record's text, or a summary of its fields
    bool readable = true; // false when its body is encrypted beyond the given access
};

struct RecordsResult {
    std::vector<Record> records;
    std::vector<std::string> warnings;
};

// Walks the records of a whole .rdat file (universal header included). A record whose CRC fails or whose
// body is cut off is reported as a warning, and the walk stops at the first record it cannot place.
core::Result<RecordsResult> parseRecords(std::span<const std::uint8_t> file, const std::string& path,
                                         const Access& access);

struct RecordFiles {
    std::vector<std::uint8_t> rdat;
    std::vector<std::uint8_t> ridx;
};

// The .rdat/.ridx pair for `records` (Note, SyLg, EDFA and Seiz bodies, a Seiz without channel entries; any
// other type is written as a Note whose text starts with the type). `header` supplies names, UUIDs and password fields;
// bodies are encrypted with `level`'s key when level > 0. Times are written as given.
RecordFiles serializeRecords(const std::vector<Record>& records, const struct UniversalHeader& header, int level,
                             const Access& keys);

} // namespace lv::formats::mef3
