// EDF+/BDF+ output pieces: the header text (fields formatted, padded, checked) and data records (samples as
// little-endian int16/int24, the annotation signal as TALs).
#pragma once

#include "core/Error.h"
#include "core/Time.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::edf {

inline constexpr std::size_t kMaxRecordBytes = 61440; // EDF+ recommends data records under 61,440 bytes

struct WriterSignal {
    std::string label;
    std::string transducer;
    std::string unit;
    std::string physicalMin; // already formatted to at most 8 characters (formatField)
    std::string physicalMax;
    std::int32_t digitalMin = -32768;
    std::int32_t digitalMax = 32767;
    std::string prefilter;
    std::int32_t samplesPerRecord = 0;
};

struct WriterHeader {
    bool bdf = false;
    bool discontinuous = false; // EDF+D / BDF+D
    std::string patient;        // EDF+ subfields: code sex birthdate name ("X X X X" when unknown)
    std::string recording;      // "Startdate dd-MMM-yyyy X X X"
    core::Uutc start = 0;       // whole seconds; the sub-second goes into each record's time-keeping TAL
    std::int64_t recordCount = 0;
    double recordSeconds = 1.0;
    std::vector<WriterSignal> signals; // the last one is the annotation signal
};

// The whole header (256 * (signals + 1) bytes). Fields that do not fit are an InvalidArgument error.
core::Result<std::string> formatHeader(const WriterHeader& header);

// `value` in at most 8 characters, rounded down (up = false) or up, so that a range stays inside; nullopt-like
// empty string when it cannot fit.
std::string formatPhysical(double value, bool up);

// Appends one record: each data signal's digital samples (already clamped to its range) and the annotation
// signal's bytes (TALs, padded with zeros to its size).
void appendRecord(std::string& out, bool bdf, std::span<const std::span<const std::int32_t>> samples,
                  const std::string& tals, std::size_t annotationBytes);

// Printable ASCII for a header field (other bytes become '_'; EDF+ wants no spaces inside subfields).
std::string asciiField(const std::string& text, bool noSpaces);

} // namespace lv::formats::edf
