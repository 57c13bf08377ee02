// A CDF file opened as a core::Recording: each numeric variable whose DEPEND_0 is an epoch variable becomes one
// channel per value of its records (VAR[i]); epochs on a fixed raster make grid channels, the others irregular
// channels. The epochs are read at open; values are read when a window needs them.
#pragma once

#include "core/BlockSource.h"
#include "core/Raster.h"
#include "core/Recording.h"
#include "formats/cdf/CdfFile.h"

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace lv::formats::cdf {

class CdfRecording final : public core::Recording, public core::BlockSource {
public:
    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    std::vector<std::string> takeWarnings() override;
    core::Status readTimes(std::span<const core::TimeSlice> slices, const core::ReadControl& control) override;
    core::Result<core::SampleSpan> samplesIn(std::size_t channel, core::TimeRange range) override;
    const core::BlockSource* blockSource() const override { return this; }
    // Blocks of at most kBlockRecords records inside a raster run (grid axes) or over the samples (irregular ones),
    // the same for every channel of an axis; no stored extrema.
    std::span<const core::BlockSpan> blocks(std::size_t channel) const override;
    bool storesExtrema() const override { return false; }
    core::Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                             const core::ReadControl& control) const override;
    static constexpr std::int64_t kBlockRecords = 4096;

    const CdfFile& file() const { return m_file; }
    // The warnings of info() that say what this reader leaves out or rounds (variables that are not channels,
    // float steps), not what is wrong with the file.
    const std::vector<std::string>& limits() const { return m_limits; }

private:
    friend class CdfOpener;
    explicit CdfRecording(CdfFile file) : m_file(std::move(file)) {}

    // The times of an epoch variable, and where its records lie on a grid (grid channels) or not (irregular).
    struct TimeAxis {
        std::size_t variable = 0;
        std::shared_ptr<const std::vector<std::int64_t>> timesNs;
        bool irregular = false;
        std::vector<core::RasterRun> runs; // grid axes: records on grid points
        std::vector<core::BlockSpan> blocks;
    };
    struct ChannelRef {
        std::size_t variable = 0, axis = 0;
        std::size_t element = 0;         // the value's place in a stored record
        std::optional<double> fill, pad; // values read as missing
    };
    // Fills the slices `group` (channels of one variable over the same samples), reading the records once.
    core::Status readGroup(std::span<const core::RawSlice> slices, std::span<const std::size_t> group) const;
    // Records [first, first + count) as counts into each slice of `group` from out[at] on, tile by tile.
    core::Status readCounts(std::span<const core::RawSlice> slices, std::span<const std::size_t> group,
                            std::int64_t first, std::int64_t count, std::size_t at) const;
    // `count` records' values of one channel to counts (kNoSample stays where a record is not held, or for fill, pad
    // and NaN values); false when some value lies beyond int32 counts (read as missing).
    bool toCounts(std::size_t channel, const std::uint8_t* records, const std::uint8_t* held, std::size_t count,
                  std::int32_t* out) const;
    void warnOnce(std::size_t channel, const std::string& what) const;

    CdfFile m_file;
    core::RecordingInfo m_info;
    std::vector<std::string> m_limits;
    std::vector<TimeAxis> m_axes;
    std::vector<ChannelRef> m_channels;
    mutable std::mutex m_mutex;
    mutable std::vector<std::string> m_warnings;
    mutable std::set<std::size_t> m_warned;

    friend core::Result<std::unique_ptr<CdfRecording>> openCdf(const io::ByteSourcePtr& file);
};

core::Result<std::unique_ptr<CdfRecording>> openCdf(const std::string& path);
// The same from any byte source (memory, fuzzing).
core::Result<std::unique_ptr<CdfRecording>> openCdf(const io::ByteSourcePtr& file);

// A file named *.cdf, or one that starts with a CDF magic number.
bool looksLikeCdf(const std::string& path);

} // namespace lv::formats::cdf
