// SegmentWriter::recover: a segment's index, headers and metadata rebuilt from the RED blocks in its data file.
#include "formats/mef3/SegmentWriter.h"

#include "core/LittleEndian.h"
#include "core/TimeFormat.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/Metadata.h"
#include "formats/mef3/RedBlock.h"
#include "io/ByteSource.h"

#include <algorithm>
#include <limits>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

namespace {

// Larger blocks are taken for damage: no writer makes them, and decoding one would allocate gigabytes.
constexpr std::uint32_t kMaxRecoveredBlockSamples = 1u << 24;

// Why the block at `offset` cannot be kept, or empty when it can; fills `out` with its samples.
std::string checkBlock(std::span<const std::uint8_t> data, std::uint64_t offset, const Access& keys, RedBlockHeader& h,
                       std::vector<std::int32_t>& out)
{
    if (offset + kRedHeaderBytes > data.size()) return "a block header is cut off";
    h = parseRedHeader(data.subspan(offset));
    if (h.blockBytes < kRedHeaderBytes || h.sampleCount == 0 || h.sampleCount > kMaxRecoveredBlockSamples ||
        offset + h.blockBytes > data.size())
        return "a block is cut off or its header is damaged";
    const auto block = data.subspan(offset, h.blockBytes);
    if (!redCrcOk(h, block)) return "a block CRC does not match";
    if (const int level = h.encryptionLevel()) {
        const auto& key = level == 1 ? keys.level1Key : keys.level2Key;
        if (!key) return "a block is encrypted and no password opens it";
        aesDecrypt(*key, std::span(h.statistics).first(16));
    }
    out.resize(h.sampleCount);
    if (!decodeRed(h, block, out)) return "a block does not decode";
    return {};
}

} // namespace

core::Result<SegmentRecovery> SegmentWriter::recover(SegmentSetup setup)
{
    auto w = std::unique_ptr<SegmentWriter>(new SegmentWriter(std::move(setup)));
    const std::int64_t startSample = w->m_setup.startSample;
    w->m_knownDifferenceBlocks = -1;
    if (auto identity = w->loadIdentity(false); !identity) {
        const ErrorCode code = identity.error().code;
        if (code == ErrorCode::PasswordRequired || code == ErrorCode::WrongPassword) return identity.error();
        // Unreadable metadata: the caller's identity, section 3 as a new segment writes it.
        w->m_section3.recordingTimeOffset = 0;
        w->m_section3.dstStartTime = w->m_section3.dstEndTime = 0;
    }
    w->m_setup.startSample = startSample;
    if (!(w->m_setup.fs > 0.0))
        return makeError(ErrorCode::Corrupt, "the metadata is unreadable and nothing else gives the sampling rate",
                         w->m_setup.file("tmet"));
    if (const std::string problem = core::samplingRateProblem(w->m_setup.fs, "sampling frequency"); !problem.empty())
        return makeError(ErrorCode::Corrupt, problem, w->m_setup.file("tmet"), kSamplingFrequencyOffset);
    const std::int64_t metadataBlocks = w->m_knownDifferenceBlocks;
    w->m_totals = {};
    SegmentRecovery report;
    std::uint64_t indexBytes = 0;
    if (auto index = io::readFile(w->m_setup.file("tidx"))) {
        indexBytes = index->size();
        if (auto header = parseUniversalHeader(*index, w->m_setup.file("tidx"), "tidx"))
            report.blocksIndexed = header->numberOfEntries;
    }
    auto data = io::readFile(w->m_setup.file("tdat"));
    if (!data) return data.error();
    if (data->size() < kUniversalHeaderBytes)
        return makeError(ErrorCode::Truncated, "the data file has no header", w->m_setup.file("tdat"));
    std::vector<std::uint8_t> entries;
    w->scanBlocks(*data, report, entries);
    const auto dataHeader = parseUniversalHeader(*data, w->m_setup.file("tdat"), "tdat");
    const std::int64_t blocks = w->m_totals.blocks;
    report.rewritten = report.bytesDropped > 0 || report.blocksIndexed != blocks || metadataBlocks != blocks ||
                       !dataHeader || dataHeader->numberOfEntries != blocks ||
                       indexBytes != kUniversalHeaderBytes + entries.size();
    if (report.rewritten) LV_TRY(w->rewriteFromScan(std::move(entries)));
    report.setup = w->m_setup;
    return report;
}

void SegmentWriter::scanBlocks(std::span<const std::uint8_t> data, SegmentRecovery& report,
                               std::vector<std::uint8_t>& entries)
{
    std::vector<std::int32_t> samples;
    std::uint64_t offset = kUniversalHeaderBytes;
    core::Uutc lastStart = std::numeric_limits<core::Uutc>::min();
    m_dataCrc = kCrcStart;
    while (offset < data.size()) {
        RedBlockHeader h;
        std::string why = checkBlock(data, offset, m_setup.keys, h, samples);
        if (why.empty() && h.startTime < lastStart) why = "a block starts before the one before it";
        if (!why.empty()) {
            report.stopReason = why + " (at byte " + std::to_string(offset) + ")";
            break;
        }
        IndexEntry e;
        e.fileOffset = static_cast<std::int64_t>(offset);
        e.startTime = lastStart = h.startTime;
        e.startSample = m_totals.samples;
        e.sampleCount = h.sampleCount;
        e.blockBytes = h.blockBytes;
        const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
        e.minimumSampleValue = *lo;
        e.maximumSampleValue = *hi;
        e.redFlags = h.flags;
        appendIndexEntry(e, entries);
        m_totals.add(e, h.differenceBytes, m_setup.fs);
        m_dataCrc = crc32Update(m_dataCrc, data.subspan(offset, h.blockBytes));
        offset += h.blockBytes;
    }
    report.blocksKept = m_totals.blocks;
    report.samplesKept = m_totals.samples;
    report.bytesDropped = data.size() - offset;
    m_dataEnd = offset;
}

core::Status SegmentWriter::rewriteFromScan(std::vector<std::uint8_t> entries)
{
    auto tdat = io::WritableFile::openExisting(m_setup.file("tdat"));
    if (!tdat) return tdat.error();
    m_tdat = std::move(*tdat);
    LV_TRY(m_tdat.truncate(m_dataEnd));
    LV_TRY(writeHeader(m_tdat, "tdat", m_totals.blocks, m_totals.maxBlockSamples, m_dataCrc));
    LV_TRY(m_tdat.sync());
    LV_TRY(m_tdat.close());
    std::vector<std::uint8_t> index(kUniversalHeaderBytes);
    index.insert(index.end(), entries.begin(), entries.end());
    writeUniversalHeader(header("tidx", m_totals.blocks, static_cast<std::int64_t>(kIndexEntryBytes)), index);
    sealFile(index);
    LV_TRY(io::replaceFile(m_setup.file("tidx"), index, true));
    return io::replaceFile(m_setup.file("tmet"), serializeTimeSeriesMetadata(metadata(), m_setup.keys), true);
}

} // namespace lv::formats::mef3
