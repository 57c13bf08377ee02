// The format-neutral description of a recording: channels, segments, gaps and annotations.
#pragma once

#include "core/Time.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lv::core {

struct ChannelInfo {
    std::string name;
    double fs = 0.0;                 // samples per second, possibly fractional
    std::string unit;                // e.g. "uV"
    double conversionFactor = 1.0;   // physical value = stored integer * conversionFactor + offset
    double offset = 0.0;             // physical value of count 0 (EDF/BDF; 0 for MEF)
    Uutc start = 0;                  // time of the first sample
    Uutc end = 0;                    // exclusive: time just after the last sample
    std::int64_t sampleCount = 0;    // stored samples (grid points with data)
    std::int64_t gridLength = 0;     // grid points from the first to the last sample, gaps included
    std::vector<TimeRange> segments; // stored segments, half-open, in time order
    std::vector<TimeRange> gaps;     // discontinuities: time ranges without samples
    std::string description;
    std::string group;     // what the channel was recorded with (MDF 4: its channel group, source and comment), or ""
    std::string prefilter; // filters applied to the values, in EDF's words ("HP:0.5Hz LP:70Hz N:50Hz"), or ""
    // Irregular channels (MDF 4 CAN signals, values on change) have no grid: sample i is the i-th stored sample in
    // time order, at its own time (Recording::readTimes, ns). gridLength == sampleCount; fs is the median rate (for
    // display and defaults only); segments and gaps split where samples are more than kIrregularGapFactor median
    // intervals apart.
    bool irregular = false;
    int timeBase = -1;     // irregular channels with the same value share their times (an MDF 4 channel group)
    bool labelled = false; // its counts stand for texts (MDF 4 value/range-to-text): Recording::valueLabel
    // 32 or 64 when the source stores IEEE floats of that width (MDF 4, CDF, BrainVision), read as counts at a step;
    // 0 for integers. Writers that hold floats write them back as floats of this width.
    std::uint8_t floatBits = 0;

    SampleGrid grid() const { return SampleGrid{start, fs}; }
};

// Irregular samples further apart than this many median intervals are not joined: a gap (the plot's default too).
inline constexpr double kIrregularGapFactor = 10.0;

struct Annotation {
    Uutc time = 0;
    std::int64_t durationUs = 0;
    std::string type; // e.g. "Note", "Seiz"
    std::string text;
    std::optional<std::string> channel; // nullopt: the whole recording
};

// Who was recorded and where: MEF section 3 (level-2 access) or the EDF+ patient and recording fields.
// Empty strings where unknown or protected by a password the caller did not give.
struct SubjectInfo {
    std::string id;        // hospital code / MEF subject ID
    std::string name;      // spaces allowed
    std::string sex;       // "F", "M" or empty
    std::string birthdate; // ISO 8601 date (YYYY-MM-DD) or empty
};

struct SiteInfo {
    std::string adminCode;  // EDF+ hospital administration code of the investigation
    std::string technician; // EDF+ technician or investigator
    std::string equipment;  // EDF+ equipment
    std::string location;   // MEF recording location
};

struct RecordingInfo {
    std::string format; // e.g. "MEF 3.0"
    std::string path;
    Uutc start = 0;
    Uutc end = 0;           // exclusive
    bool timesKnown = true; // false when a protected time offset could not be applied
    std::vector<ChannelInfo> channels;
    std::vector<Annotation> annotations;
    std::vector<std::string> warnings;
    SubjectInfo subject;
    SiteInfo site;
    std::string description; // the recording's own description (MEF section 2's session description), or empty

    // Index of the channel with this name, or -1.
    int channelIndex(const std::string& name) const;
};

// No recording starts after the moment it is opened (a day of slack for wrong clocks): a later start with true
// dates is a damaged time or time offset. The warning naming `where` (the field the times come from), or none.
std::optional<std::string> futureStartWarning(const RecordingInfo& info, Uutc now, const std::string& where);
// The system clock in uUTC.
Uutc nowUutc();

} // namespace lv::core
