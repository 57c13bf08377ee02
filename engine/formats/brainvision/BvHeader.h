// A BrainVision header (.vhdr): where the data and markers are, how samples are stored, the channels.
#pragma once

#include "core/Error.h"
#include "formats/brainvision/BvIni.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lv::formats::brainvision {

enum class BinaryFormat { Int16, Int32, Float32 };
enum class Orientation { Multiplexed, Vectorized };

struct BvChannel {
    std::string name;
    std::string reference;
    double resolution = 1.0;                // physical units per stored value
    std::string unit;                       // as written; "µV" when the file leaves it empty
    std::optional<std::string> coordinates; // "radius,theta,phi" from [Coordinates], as written
};

struct BvHeader {
    int version = 1;        // 1 or 2 (the identification line's "Version N.0")
    std::string dataFile;   // as written (relative to the header's folder, or absolute)
    std::string markerFile; // as written, or empty
    BinaryFormat format = BinaryFormat::Int16;
    Orientation orientation = Orientation::Multiplexed;
    double samplingIntervalUs = 0; // fractional allowed
    std::int64_t dataPoints = -1;  // DataPoints= when the header says (BrainVision Analyzer and Longview write it)
    std::vector<BvChannel> channels;
    std::string comment; // the [Comment] section's text (amplifier setup, impedances), trimmed

    std::size_t sampleBytes() const { return format == BinaryFormat::Int16 ? 2 : 4; }
    double fs() const { return 1e6 / samplingIntervalUs; }
};

// Parses a header file's bytes. What a reader cannot do without (the data file, the channels, the sampling
// interval, a binary format it reads) is an error naming `path` and the line; sloppy but readable fields add
// warnings.
core::Result<BvHeader> parseHeader(std::span<const std::uint8_t> bytes, const std::string& path,
                                   std::vector<std::string>& warnings);

} // namespace lv::formats::brainvision
