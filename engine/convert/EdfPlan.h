// What an EDF+/BDF+ export writes before it reads a sample: the record grid (duration, count, each channel's
// samples per record and first grid index), the signals' headers, the source annotations in range, and the
// scale each channel gets once its extrema are known.
#pragma once

#include "convert/EdfExport.h"
#include "formats/edf/EdfWriter.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace lv::convert {

struct EdfChannel {
    std::size_t source = 0;
    std::int64_t perRecord = 0;       // samples per record
    std::int64_t base = 0;            // grid index of record 0's first sample
    double scale = 1.0, offset = 0.0; // the written file's physical = digital * scale + offset
    formats::edf::WriterSignal signal;
};

struct EdfPlan {
    core::Uutc start = 0; // record 0
    core::Uutc recordUs = 0;
    double recordSeconds = 1.0;
    std::int64_t records = 0;
    std::vector<EdfChannel> channels;
    std::vector<core::Annotation> annotations; // source ones in range (gap and damage ones are added later)
    bool bdf = false;
};

// The record grid and signals for `options` (the channels' rates give whole samples per record within 61,440
// bytes). Unsupported when the recording holds no samples, InvalidArgument when the range holds none.
core::Result<EdfPlan> makeEdfPlan(const core::RecordingInfo& info, const EdfExportOptions& options,
                                  std::vector<std::string>& warnings);

// Sets `ch`'s physical range and scale from the counts' extrema (minimum > maximum: no sample) and whether it
// has missing samples (filled with options.fillValue): at the source's resolution when the digital range holds
// it, else with a warning saying how much coarser.
core::Status chooseEdfScale(EdfChannel& ch, const core::ChannelInfo& src, std::int32_t minimum, std::int32_t maximum,
                            bool anyMissing, const EdfExportOptions& options, const std::string& sourcePath,
                            std::vector<std::string>& warnings);

// Records per chunk so that a chunk holds about 2 Mi samples across the channels.
std::int64_t edfChunkRecords(const EdfPlan& plan);

// Reads every channel's samples of records [first, first + count) into out[c] (kNoSample outside its grid).
core::Status readEdfRecords(core::Recording& recording, const EdfPlan& plan, std::int64_t first, std::int64_t count,
                            std::vector<std::vector<std::int32_t>>& out, const core::ReadControl& control);

// The time of sample `i` (counted from record 0) of channel `ch`.
core::Uutc edfSampleTime(const EdfPlan& plan, const EdfChannel& ch, std::int64_t i);

} // namespace lv::convert
