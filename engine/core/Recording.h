// An open recording: its description and sample-exact reads of raw counts or physical values.
#pragma once

#include "core/Error.h"
#include "core/RecordingInfo.h"
#include "core/TaskRunner.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

namespace lv::core {

// Raw value that marks a grid point without a sample (a gap, or a NaN stored by the writer).
inline constexpr std::int32_t kNoSample = std::numeric_limits<std::int32_t>::min();

// One slice of one channel's grid: samples [firstSample, firstSample + out.size()).
struct RawSlice {
    std::size_t channel = 0;
    std::int64_t firstSample = 0;
    std::span<std::int32_t> out; // filled with stored counts, kNoSample where there is none
};

// The times of samples [firstSample, firstSample + outNs.size()) of one channel, in ns since 1970-01-01 UTC.
struct TimeSlice {
    std::size_t channel = 0;
    std::int64_t firstSample = 0;
    std::span<std::int64_t> outNs;
};

// The grid range [first, first + count) of a channel (sample numbers of an irregular one).
struct SampleSpan {
    std::int64_t first = 0;
    std::int64_t count = 0;
};

struct ReadControl {
    TaskRunner* runner = nullptr;        // nullptr: run on the calling thread
    const CancelToken* cancel = nullptr; // checked between blocks
    bool verifyCrc = true;               // check each data block's CRC as it is read (formats that have one)
    bool skipDamagedBlocks = false;      // a damaged block reads as missing, with a warning, instead of failing
    // A hint that the reader goes forward in one pass (an export): no channel is read again before where this read
    // of it ends, so a format may drop what it cached of that. Reading back anyway is correct, only slower.
    bool forwardOnly = false;
    // Called with (done, total) units of work, possibly from worker threads.
    std::function<void(std::uint64_t, std::uint64_t)> progress;
};

// A data block that failed its checks and was read as missing (ReadControl::skipDamagedBlocks).
struct DamagedBlock {
    std::size_t channel = 0;
    std::int64_t firstSample = 0; // grid index of the block's first sample
    std::int64_t sampleCount = 0;
    std::string path;         // the file holding the block
    std::uint64_t offset = 0; // the block's byte offset in it
};

// The annotation an export writes for a damaged block: type "Damaged" at the block's time, on its channel.
Annotation damageAnnotation(const RecordingInfo& info, const DamagedBlock& block);

class Recording {
public:
    virtual ~Recording() = default;
    virtual const RecordingInfo& info() const = 0;
    // Fills every slice. Slices must not overlap. Output is identical for any runner.
    virtual Status readRaw(std::span<const RawSlice> slices, const ReadControl& control) = 0;
    // Non-fatal problems met while reading (e.g. one damaged block), drained by the caller.
    virtual std::vector<std::string> takeWarnings() { return {}; }
    // Blocks read as missing because they are damaged, each reported once per recording, drained by the caller.
    virtual std::vector<DamagedBlock> takeDamage() { return {}; }
    // The recording's blocks, when it is stored in blocks (see core/BlockSource.h); else nullptr.
    virtual const class BlockSource* blockSource() const { return nullptr; }
    // Sample times in ns: a grid channel's grid points (microseconds, as timeOf), an irregular channel's own
    // times. A recording with irregular channels overrides it; the default fails for them.
    virtual Status readTimes(std::span<const TimeSlice> slices, const ReadControl& control);
    // The samples of `channel` whose times lie in the half-open range: sampleSpan for a grid channel; for an
    // irregular one, found by bisection over readTimes (recordings that hold the times override it).
    virtual Result<SampleSpan> samplesIn(std::size_t channel, TimeRange range);
    // The text a stored count of a labelled channel stands for ("idle", "violet"), empty for none: a lookup in
    // tables read at open, never a disk read, so any thread (the UI's too) may ask.
    virtual std::string valueLabel(std::size_t /*channel*/, std::int32_t /*count*/) const { return {}; }
};

// Samples of one channel over a time range, on the channel's grid.
struct ChannelSamples {
    std::size_t channel = 0;
    std::int64_t firstSample = 0;  // grid index of raw[0]
    std::vector<std::int32_t> raw; // kNoSample where no sample exists

    bool valid(std::size_t i) const { return raw[i] != kNoSample; }
};

// The grid range of a grid channel that lies in the half-open time range (see Recording::samplesIn for any channel).
SampleSpan sampleSpan(const ChannelInfo& channel, TimeRange range);

// Reads the raw counts of several channels over one time range (all channels decoded in parallel).
Result<std::vector<ChannelSamples>> readRange(Recording& recording, std::span<const std::size_t> channels,
                                              TimeRange range, const ReadControl& control);

// Reads every sample of every channel once (in slices of 2^20 samples) and drops them: what a check of the whole
// recording needs; the reader's warnings and damage are then the caller's to take. Cancellable via `control`.
Status readEverySample(Recording& recording, const ReadControl& control);

// An irregular channel's samples over a time range: their times (ns) and counts (kNoSample where invalid).
struct TimedSamples {
    std::size_t channel = 0;
    std::int64_t firstSample = 0;
    std::vector<std::int64_t> timesNs;
    std::vector<std::int32_t> raw;
};
// Reads the samples of one channel (grid or irregular) whose times lie in the range, with their times.
Result<TimedSamples> readTimed(Recording& recording, std::size_t channel, TimeRange range, const ReadControl& control);

// Physical values: counts times the conversion factor plus the offset, NaN where no sample exists.
std::vector<double> toPhysical(const ChannelSamples& samples, double conversionFactor, double offset = 0.0);

} // namespace lv::core
