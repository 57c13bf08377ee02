// The EDF/BDF header (fixed part + one block per signal): tolerant parsing, with warnings for sloppy fields.
#pragma once

#include "core/Error.h"
#include "core/Time.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::edf {

inline constexpr std::size_t kFixedHeaderBytes = 256;
inline constexpr std::size_t kSignalHeaderBytes = 256;
inline constexpr int kMaxSignals = 4096;

enum class Variant { Edf, EdfPlusC, EdfPlusD };

struct EdfSignal {
    std::string label;
    std::string transducer;
    std::string unit;
    double physicalMin = 0.0;
    double physicalMax = 0.0;
    std::int32_t digitalMin = 0;
    std::int32_t digitalMax = 0;
    std::string prefilter;
    std::int32_t samplesPerRecord = 0;
    bool annotations = false;       // an "EDF Annotations" / "BDF Annotations" signal
    std::size_t offsetInRecord = 0; // bytes from the record's start
    // physical = count * factor + offset (the header's two points, as every reader maps them)
    double factor = 1.0;
    double offset = 0.0;
};

// 01.01.85 00.00.00, the start date EDF+ writes when the true date is unknown ("Startdate X").
inline constexpr core::Uutc kUnknownStartDate = 473'385'600'000'000;

struct EdfHeader {
    bool bdf = false; // 24-bit samples
    Variant variant = Variant::Edf;
    std::string patient;
    std::string recording;
    core::Uutc start = 0;          // start date and time, whole seconds (the first record's sub-second is a TAL)
    bool startDateUnknown = false; // EDF+ "Startdate X": `start` counts from 01.01.85 00.00.00 (relative times)
    std::int64_t headerBytes = 0;  // 256 * (signals + 1)
    std::int64_t recordCount = -1; // as stored (-1: unknown)
    double recordSeconds = 0.0;    // as stored
    core::Uutc recordDurationUs = 0;
    std::size_t recordBytes = 0;
    std::vector<EdfSignal> signals;

    std::size_t sampleBytes() const { return bdf ? 3 : 2; }
    std::string formatName() const; // "EDF", "EDF+C", "EDF+D", "BDF", "BDF+C", "BDF+D"
};

// The number of signals announced by the fixed part (bytes [0, 256)); an error when it is not a number in
// [0, kMaxSignals] or the version field names neither EDF nor BDF.
core::Result<int> signalCount(std::span<const std::uint8_t> fixed, const std::string& path);

// Parses the whole header (256 * (signals + 1) bytes). Sloppy but readable fields add warnings.
core::Result<EdfHeader> parseHeader(std::span<const std::uint8_t> bytes, const std::string& path,
                                    std::vector<std::string>& warnings);

// Text helpers shared with the TAL parser and the writer.
std::string trimmed(std::string_view text);

} // namespace lv::formats::edf
