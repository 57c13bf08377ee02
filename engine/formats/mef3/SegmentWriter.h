// One segment's .tdat/.tidx/.tmet written append-only: blocks after the committed data, index entries after the
// committed entries, then the headers that count them and the metadata (temp file + rename). A crash at any
// moment leaves the last commit readable; bytes past it are cut off when the segment is reopened.
#pragma once

#include "core/Error.h"
#include "formats/mef3/Metadata.h"
#include "formats/mef3/SegmentTotals.h"
#include "io/WritableFile.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

enum class Durability {
    Full, // every commit is synced: data before the index that points at it, metadata by rename
    Fast, // the same order without syncs: survives a killed process, not a power cut
};

// How a writer stores times (the MEF 3.0 recording time offset, RTO). Off: true uUTC and an RTO of 0. On: each
// time t is stored as -(t - base), below zero, and section 3 (level 2) holds `field`: `base` when the true times
// are known (readers get true = -stored + RTO; without level 2 they see relative times), kUutcNoEntry when the
// writer's own source knew only relative times (every reader then sees relative times).
struct TimeOffset {
    bool on = false;
    std::int64_t base = 0;
    std::int64_t field = 0;
    std::int64_t stored(std::int64_t t) const { return on && t != kUutcNoEntry ? -(t - base) : t; }
};

struct SegmentSetup {
    std::string channelDir; // the .timd directory
    std::string channelName;
    std::string sessionName;
    int segmentNumber = 0;
    double fs = 0.0;
    std::string unit;
    double conversionFactor = 1.0;
    std::string description;
    std::string sessionDescription; // section 2, the same in every segment of the session
    std::int64_t acquisitionNumber = 1;
    std::uint32_t blockSamples = 256; // the block length the writer aims at
    std::int64_t startSample = 0;     // channel-relative number of the segment's first sample
    ValidationFields validation;
    Access keys; // level-1 key encrypts section 2, level-2 key section 3
    Durability durability = Durability::Full;
    std::string subjectName, subjectId, recordingLocation; // section 3
    TimeOffset timeOffset;

    std::string baseName() const; // "<channel>-<6-digit segment number>"
    std::string directory() const;
    std::string file(const char* extension) const;
};

// The numbers of the "<channel>-NNNNNN.segd" folders in setup.channelDir, ascending.
std::vector<int> segmentNumbers(const SegmentSetup& setup);

// What recovering one segment kept and dropped.
struct SegmentRecovery {
    std::int64_t blocksKept = 0;
    std::int64_t samplesKept = 0;
    std::int64_t blocksIndexed = -1; // blocks the index counted before, or -1 when it was unreadable
    std::uint64_t bytesDropped = 0;  // data past the last kept block
    std::string stopReason;          // why the scan stopped before the end of the data, or empty
    bool rewritten = false;          // false when index, metadata and data already agreed
    SegmentSetup setup;              // the identity used (from the metadata when it was readable)
};

class SegmentWriter {
public:
    // Builds the empty segment under a temporary directory name and renames it into place.
    static core::Result<std::unique_ptr<SegmentWriter>> create(SegmentSetup setup);
    // Opens an existing segment for appending: identity from its metadata, totals from its index.
    // `setup` supplies the paths, names, keys and durability.
    static core::Result<std::unique_ptr<SegmentWriter>> reopen(SegmentSetup setup);

    // Rebuilds the segment's index and metadata from its RED blocks: blocks are kept from the first on while
    // each is whole, its CRC holds and time runs forward; the data file is cut after the last one kept.
    // Identity comes from the segment's metadata when readable, else from `setup`; `setup.startSample` is
    // always used.
    static core::Result<SegmentRecovery> recover(SegmentSetup setup);

    // Writes one encoded block after the last; `entry` needs time, count, bytes, extrema and flags.
    // Readers see it after commit().
    core::Status add(std::span<const std::uint8_t> block, IndexEntry entry, std::uint32_t differenceBytes);
    core::Status commit();
    core::Status close(); // commits, then closes the files

    const SegmentTotals& totals() const { return m_totals; }
    const SegmentSetup& setup() const { return m_setup; }

private:
    explicit SegmentWriter(SegmentSetup setup);
    core::Status flushData();
    core::Status loadIdentity(bool forAppend);
    core::Status loadCommitted();
    void scanBlocks(std::span<const std::uint8_t> data, SegmentRecovery& report, std::vector<std::uint8_t>& entries);
    core::Status rewriteFromScan(std::vector<std::uint8_t> entries);
    UniversalHeader header(const char* type, std::int64_t entries, std::int64_t maxEntry) const;
    TimeSeriesMetadata metadata() const;
    core::Status writeHeader(io::WritableFile& file, const char* type, std::int64_t entries, std::int64_t maxEntry,
                             std::uint32_t bodyCrc);

    SegmentSetup m_setup;
    Section3 m_section3;
    io::WritableFile m_tdat;
    io::WritableFile m_tidx;
    std::uint64_t m_dataEnd = 0; // end of the last block written
    std::uint32_t m_dataCrc = 0;
    std::uint32_t m_indexCrc = 0;
    std::int64_t m_committedBlocks = 0;
    static constexpr std::size_t kWriteBufferBytes = 1 << 20;
    std::vector<std::uint8_t> m_buffer; // blocks not yet written, to go at m_bufferOffset
    std::uint64_t m_bufferOffset = 0;
    std::vector<std::uint8_t> m_pendingIndex; // entries written to .tdat but not yet to .tidx
    SegmentTotals m_totals;
    std::int64_t m_knownDifferenceBlocks = 0; // blocks whose difference bytes the metadata accounted for
};

} // namespace lv::formats::mef3
