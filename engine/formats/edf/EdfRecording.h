// An EDF, EDF+ or BDF file opened as a core::Recording; each data record is one block per signal.
#pragma once

#include "core/BlockSource.h"
#include "core/Recording.h"
#include "formats/edf/EdfHeader.h"
#include "io/ByteSource.h"

#include <cmath>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace lv::formats::edf {

class EdfRecording final : public core::Recording, public core::BlockSource {
public:
    const core::RecordingInfo& info() const override { return m_info; }
    core::Status readRaw(std::span<const core::RawSlice> slices, const core::ReadControl& control) override;
    const core::BlockSource* blockSource() const override { return this; }
    // EDF and EDF+C records follow each other, so their spans are computed, and listed only when asked for.
    std::span<const core::BlockSpan> blocks(std::size_t channel) const override;
    bool storesExtrema() const override { return false; }
    core::Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                             const core::ReadControl& control) const override;
    // Samples outside their signal's digital range, once per channel (EDF has no checksum: a damaged range or
    // damaged samples show only so). The values are kept as stored.
    std::vector<std::string> takeWarnings() override;

    const EdfHeader& header() const { return m_header; }
    // Data records read (those the file holds whole, at most as many as the header announces).
    std::int64_t recordsRead() const { return static_cast<std::int64_t>(m_blockCount); }
    // Header signal index of each channel (annotation signals are not channels).
    const std::vector<std::size_t>& signalOfChannel() const { return m_signalOf; }

private:
    friend core::Result<std::unique_ptr<EdfRecording>> openEdf(const std::string& path);
    friend class EdfOpener;
    EdfRecording() = default;
    struct Job {
        std::size_t firstBlock = 0, endBlock = 0; // blocks whose records follow each other in the file
    };
    std::vector<Job> planJobs(std::span<const std::pair<std::size_t, std::size_t>> ranges) const;
    core::Status runJob(const Job& job, std::span<const core::RawSlice> slices,
                        std::span<const std::pair<std::size_t, std::size_t>> ranges,
                        std::vector<std::uint8_t>& buffer) const;
    std::uint64_t recordOffset(std::size_t block) const;
    // The file's record number of block b (blocks in time order).
    std::int64_t recordOf(std::size_t block) const
    {
        return m_recordOf.empty() ? static_cast<std::int64_t>(block) : m_recordOf[block];
    }
    // Block b of a channel: computed for EDF and EDF+C (records back to back) and for EDF+D records that do not
    // overlap (from their times), listed otherwise (an overlapping record is moved after its predecessor).
    core::BlockSpan span(std::size_t channel, std::size_t block) const
    {
        const std::uint32_t n = m_perRecord[channel];
        switch (m_layout) {
        case Layout::Regular:
            return {static_cast<std::int64_t>(block) * n, n, 0, 0, false};
        case Layout::Timed:
            return {timedFirst(m_blockTime[block], n), n, 0, 0, false};
        case Layout::Listed:
            break;
        }
        return m_spans[channel][block];
    }
    // The grid index of a record at `t` after the first block, `n` samples a record (EDF+D placement).
    std::int64_t timedFirst(core::Uutc t, std::uint32_t n) const
    {
        return std::llround(static_cast<double>(t) * n / (m_header.recordSeconds * 1e6));
    }
    // Blocks of channel c that a slice of samples [first, end) touches: [from, to).
    std::pair<std::size_t, std::size_t> blocksTouching(std::size_t channel, std::int64_t first, std::int64_t end) const;
    // Decodes `count` samples of channel's `block` and checks them against the signal's digital range.
    void decode(std::size_t channel, std::size_t block, const std::uint8_t* bytes, std::size_t count,
                std::int32_t* out) const;

    EdfHeader m_header;
    io::ByteSourcePtr m_file;
    core::RecordingInfo m_info;
    std::vector<std::size_t> m_signalOf; // per channel
    std::size_t m_blockCount = 0;        // records read whole, one block each per channel
    enum class Layout { Regular, Timed, Listed };
    Layout m_layout = Layout::Regular;      // Regular: EDF, EDF+C; Timed, Listed: EDF+D
    std::vector<core::Uutc> m_blockTime;    // Timed: block b's time after the first block's
    std::vector<std::uint32_t> m_perRecord; // per channel: samples a record
    std::vector<std::int64_t> m_recordOf;   // EDF+D, per block (time order): the record's index in the file
    mutable std::vector<std::vector<core::BlockSpan>> m_spans; // per channel, one per block (Listed, or asked for)
    mutable std::mutex m_spansMutex;
    mutable std::mutex m_warningsMutex;
    mutable std::vector<std::string> m_warnings;
    mutable std::set<std::size_t> m_outOfRange; // channels already warned of
};

// Opens `path` (.edf, .bdf, any EDF/BDF by content). Sloppy files open with warnings in info().warnings.
core::Result<std::unique_ptr<EdfRecording>> openEdf(const std::string& path);

// Stored samples to counts: little-endian int16 (EDF) or int24 (BDF), sign-extended.
void decodeSamples(const std::uint8_t* in, std::size_t count, bool bdf, std::int32_t* out);

} // namespace lv::formats::edf
