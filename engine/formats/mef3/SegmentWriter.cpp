// Segment files: creation under a temporary name, appends, ordered commits, reopening after a crash.
#include "formats/mef3/SegmentWriter.h"

#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/RedBlock.h"
#include "io/ByteSource.h"
#include "io/FileSystem.h"
#include "io/Path.h"
#include "io/WritableFile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

namespace {

PasswordBytes uuidOf(const std::string& seed)
{
    return sha256First16(std::span(reinterpret_cast<const std::uint8_t*>(seed.data()), seed.size()));
}

} // namespace

std::string SegmentSetup::baseName() const
{
    char number[16];
    std::snprintf(number, sizeof number, "-%06d", segmentNumber);
    return channelName + number;
}

std::string SegmentSetup::directory() const { return channelDir + "/" + baseName() + ".segd"; }

std::string SegmentSetup::file(const char* extension) const { return directory() + "/" + baseName() + "." + extension; }

std::vector<int> segmentNumbers(const SegmentSetup& s)
{
    std::vector<int> numbers;
    std::error_code ec;
    const std::string prefix = s.channelName + "-";
    for (const auto& entry : std::filesystem::directory_iterator(s.channelDir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.size() != prefix.size() + 11 || name.rfind(prefix, 0) != 0 || !name.ends_with(".segd")) continue;
        const std::string digits = name.substr(prefix.size(), 6);
        if (std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            numbers.push_back(std::stoi(digits));
    }
    std::sort(numbers.begin(), numbers.end());
    return numbers;
}

SegmentWriter::SegmentWriter(SegmentSetup setup) : m_setup(std::move(setup)) {}

core::Result<std::unique_ptr<SegmentWriter>> SegmentWriter::create(SegmentSetup setup)
{
    auto w = std::unique_ptr<SegmentWriter>(new SegmentWriter(std::move(setup)));
    const SegmentSetup& s = w->m_setup;
    const bool durable = s.durability == Durability::Full;
    const std::string final = s.directory();
    const std::string temp = final + ".tmp"; // not a "*.segd" name: readers skip it
    std::error_code ec;
    std::filesystem::remove_all(io::toPath(temp), ec);
    if (io::SystemError e = io::createFolder(io::toPath(temp)); !e.ok())
        return makeError(io::writeFailureCode(e), "cannot create the segment directory: " + e.text, temp);
    w->m_section3.recordingTimeOffset = s.timeOffset.on ? s.timeOffset.field : 0; // 0: times are true uUTC
    w->m_section3.dstStartTime = w->m_section3.dstEndTime = 0;
    w->m_section3.subjectName1 = s.subjectName;
    w->m_section3.subjectId = s.subjectId;
    w->m_section3.recordingLocation = s.recordingLocation;
    w->m_dataEnd = kUniversalHeaderBytes;
    w->m_dataCrc = w->m_indexCrc = kCrcStart;
    {
        const std::string base = temp + "/" + s.baseName();
        auto tdat = io::WritableFile::create(base + ".tdat");
        if (!tdat) return tdat.error();
        auto tidx = io::WritableFile::create(base + ".tidx");
        if (!tidx) return tidx.error();
        LV_TRY(w->writeHeader(*tdat, "tdat", 0, 0, kCrcStart));
        LV_TRY(w->writeHeader(*tidx, "tidx", 0, static_cast<std::int64_t>(kIndexEntryBytes), kCrcStart));
        if (durable) LV_TRY(tdat->sync());
        if (durable) LV_TRY(tidx->sync());
        LV_TRY(io::replaceFile(base + ".tmet", serializeTimeSeriesMetadata(w->metadata(), s.keys), durable));
    }
    if (io::SystemError e = io::moveReplacing(io::toPath(temp), io::toPath(final)); !e.ok())
        return makeError(ErrorCode::WriteFailed, "cannot move the new segment into place: " + e.text, final);
    if (durable) LV_TRY(io::syncDirectory(s.channelDir));
    auto tdat = io::WritableFile::openExisting(s.file("tdat"));
    if (!tdat) return tdat.error();
    auto tidx = io::WritableFile::openExisting(s.file("tidx"));
    if (!tidx) return tidx.error();
    w->m_tdat = std::move(*tdat);
    w->m_tidx = std::move(*tidx);
    return w;
}

core::Result<std::unique_ptr<SegmentWriter>> SegmentWriter::reopen(SegmentSetup setup)
{
    auto w = std::unique_ptr<SegmentWriter>(new SegmentWriter(std::move(setup)));
    LV_TRY(w->loadCommitted());
    return w;
}

core::Status SegmentWriter::loadIdentity(bool forAppend)
{
    SegmentSetup& s = m_setup;
    const std::string tmetPath = s.file("tmet");
    auto tmetBytes = io::readFile(tmetPath);
    if (!tmetBytes) return tmetBytes.error();
    auto tmet = parseTimeSeriesMetadata(*tmetBytes, tmetPath, s.keys);
    if (!tmet) return tmet.error();
    if (!tmet->section2Readable || !tmet->section3Readable)
        return makeError(ErrorCode::PasswordRequired,
                         forAppend ? "appending needs the password that opens the metadata"
                                   : "rewriting the metadata needs the password that opens it",
                         tmetPath);
    const std::int64_t rto = tmet->section3.recordingTimeOffset, first = tmet->header.startTime;
    const bool offset = (rto != 0 && rto != kUutcNoEntry) || (first < 0 && first != kUutcNoEntry);
    if (forAppend && offset)
        return makeError(ErrorCode::Unsupported, "cannot append to a segment with a recording time offset", tmetPath);
    const TimeSeriesSection2& m = tmet->section2;
    s.fs = m.samplingFrequency;
    s.unit = m.unitsDescription;
    s.conversionFactor = m.unitsConversionFactor;
    s.description = m.channelDescription;
    s.sessionDescription = m.sessionDescription;
    s.acquisitionNumber = m.acquisitionChannelNumber;
    if (forAppend) s.startSample = m.startSample < 0 ? 0 : m.startSample;
    s.sessionName = tmet->header.sessionName;
    s.validation = tmet->header.passwords;
    if (m.maximumBlockSamples > 0) s.blockSamples = m.maximumBlockSamples;
    m_section3 = tmet->section3;
    m_totals.maxDifferenceBytes = m.maximumDifferenceBytes;
    m_knownDifferenceBlocks = std::max<std::int64_t>(m.numberOfBlocks, 0);
    return {};
}

core::Status SegmentWriter::loadCommitted()
{
    SegmentSetup& s = m_setup;
    LV_TRY(loadIdentity(true));
    const std::string tidxPath = s.file("tidx");
    auto tidxBytes = io::readFile(tidxPath);
    if (!tidxBytes) return tidxBytes.error();
    auto header = parseUniversalHeader(*tidxBytes, tidxPath, "tidx");
    if (!header) return header.error();
    const std::uint64_t indexEnd =
        kUniversalHeaderBytes + static_cast<std::uint64_t>(header->numberOfEntries) * kIndexEntryBytes;
    if (header->numberOfEntries < 0 || indexEnd > tidxBytes->size())
        return makeError(ErrorCode::Truncated, "the index is shorter than its header says (run recover)", tidxPath);
    auto index = parseTimeSeriesIndex(std::span(*tidxBytes).first(indexEnd), tidxPath);
    if (!index) return index.error();

    m_dataEnd = kUniversalHeaderBytes;
    for (const IndexEntry& e : index->entries) {
        m_totals.add(e, m_totals.maxDifferenceBytes, s.fs);
        m_dataEnd = static_cast<std::uint64_t>(e.fileOffset) + e.blockBytes;
    }
    m_committedBlocks = static_cast<std::int64_t>(index->entries.size());
    m_indexCrc = header->bodyCrc;

    auto tdat = io::WritableFile::openExisting(s.file("tdat"));
    if (!tdat) return tdat.error();
    m_tdat = std::move(*tdat);
    std::vector<std::uint8_t> head(kUniversalHeaderBytes);
    LV_TRY(m_tdat.readAt(0, head));
    auto dataHeader = parseUniversalHeader(head, m_tdat.path(), "tdat");
    if (dataHeader && dataHeader->numberOfEntries == m_committedBlocks) {
        m_dataCrc = dataHeader->bodyCrc;
    } else { // interrupted between the data header and the index: recount the data CRC
        std::vector<std::uint8_t> body(m_dataEnd - kUniversalHeaderBytes);
        LV_TRY(m_tdat.readAt(kUniversalHeaderBytes, body));
        m_dataCrc = crc32(body);
    }
    // The largest difference count is in the metadata, or in the headers of blocks the metadata missed.
    for (std::size_t k = static_cast<std::size_t>(m_knownDifferenceBlocks); k < index->entries.size(); ++k) {
        std::vector<std::uint8_t> red(kRedHeaderBytes);
        LV_TRY(m_tdat.readAt(static_cast<std::uint64_t>(index->entries[k].fileOffset), red));
        m_totals.maxDifferenceBytes = std::max(m_totals.maxDifferenceBytes, parseRedHeader(red).differenceBytes);
    }
    LV_TRY(m_tdat.truncate(m_dataEnd));
    auto tidxFile = io::WritableFile::openExisting(tidxPath);
    if (!tidxFile) return tidxFile.error();
    m_tidx = std::move(*tidxFile);
    return m_tidx.truncate(indexEnd);
}

core::Status SegmentWriter::add(std::span<const std::uint8_t> block, IndexEntry entry, std::uint32_t differenceBytes)
{
    if (m_buffer.size() + block.size() > kWriteBufferBytes) LV_TRY(flushData());
    if (m_buffer.empty()) m_bufferOffset = m_dataEnd;
    m_buffer.insert(m_buffer.end(), block.begin(), block.end());
    entry.fileOffset = static_cast<std::int64_t>(m_dataEnd);
    entry.startSample = m_totals.samples; // segment-relative, as the specification says
    IndexEntry stored = entry;
    stored.startTime = m_setup.timeOffset.stored(entry.startTime); // the totals keep true times
    appendIndexEntry(stored, m_pendingIndex);
    m_dataCrc = crc32Update(m_dataCrc, block);
    m_dataEnd += block.size();
    m_totals.add(entry, differenceBytes, m_setup.fs);
    return {};
}

core::Status SegmentWriter::flushData()
{
    if (m_buffer.empty()) return {};
    LV_TRY(m_tdat.writeAt(m_bufferOffset, m_buffer));
    m_buffer.clear();
    return {};
}

core::Status SegmentWriter::commit()
{
    LV_TRY(flushData());
    if (m_pendingIndex.empty()) return {};
    const bool durable = m_setup.durability == Durability::Full;
    LV_TRY(writeHeader(m_tdat, "tdat", m_totals.blocks, m_totals.maxBlockSamples, m_dataCrc));
    if (durable) LV_TRY(m_tdat.sync());
    const std::uint64_t indexEnd =
        kUniversalHeaderBytes + static_cast<std::uint64_t>(m_committedBlocks) * kIndexEntryBytes;
    LV_TRY(m_tidx.writeAt(indexEnd, m_pendingIndex));
    if (durable) LV_TRY(m_tidx.sync());
    m_indexCrc = crc32Update(m_indexCrc, m_pendingIndex);
    LV_TRY(writeHeader(m_tidx, "tidx", m_totals.blocks, static_cast<std::int64_t>(kIndexEntryBytes), m_indexCrc));
    if (durable) LV_TRY(m_tidx.sync());
    m_committedBlocks = m_totals.blocks;
    m_pendingIndex.clear();
    m_pendingIndex.shrink_to_fit();
    m_buffer.shrink_to_fit(); // a session of many channels holds no write buffer per committed channel
    return io::replaceFile(m_setup.file("tmet"), serializeTimeSeriesMetadata(metadata(), m_setup.keys), durable);
}

core::Status SegmentWriter::close()
{
    LV_TRY(commit());
    if (m_setup.durability == Durability::Fast) { // a closed segment is on disk in either mode
        LV_TRY(m_tdat.sync());
        LV_TRY(m_tidx.sync());
        LV_TRY(io::replaceFile(m_setup.file("tmet"), serializeTimeSeriesMetadata(metadata(), m_setup.keys), true));
    }
    LV_TRY(m_tdat.close());
    return m_tidx.close();
}

core::Status SegmentWriter::writeHeader(io::WritableFile& file, const char* type, std::int64_t entries,
                                        std::int64_t maxEntry, std::uint32_t bodyCrc)
{
    std::vector<std::uint8_t> head(kUniversalHeaderBytes);
    writeUniversalHeader(header(type, entries, maxEntry), head);
    core::le::store(&head[4], bodyCrc);
    core::le::store(&head[0], crc32(std::span(head).subspan(4)));
    return file.writeAt(0, head);
}

UniversalHeader SegmentWriter::header(const char* type, std::int64_t entries, std::int64_t maxEntry) const
{
    UniversalHeader h;
    h.fileType = type;
    h.startTime = m_totals.blocks ? m_setup.timeOffset.stored(m_totals.start) : kUutcNoEntry;
    h.endTime = m_totals.blocks ? m_setup.timeOffset.stored(m_totals.end) : kUutcNoEntry;
    h.numberOfEntries = entries;
    h.maximumEntrySize = maxEntry;
    h.segmentNumber = m_setup.segmentNumber;
    h.channelName = m_setup.channelName;
    h.sessionName = m_setup.sessionName;
    // Deterministic identifiers: the same input gives the same bytes.
    const std::string seed = m_setup.sessionName + "/" + m_setup.baseName();
    h.levelUuid = uuidOf(seed);
    h.fileUuid = uuidOf(seed + "." + type);
    h.passwords = m_setup.validation;
    return h;
}

TimeSeriesMetadata SegmentWriter::metadata() const
{
    const SegmentTotals& t = m_totals;
    TimeSeriesMetadata m;
    m.header = header("tmet", 1, static_cast<std::int64_t>(kMetadataFileBytes));
    m.section2Encryption = m_setup.keys.level1Key ? 1 : -1;
    m.section3Encryption = m_setup.keys.level2Key ? 2 : -2;
    TimeSeriesSection2& s = m.section2;
    s.channelDescription = m_setup.description;
    s.sessionDescription = m_setup.sessionDescription;
    s.recordingDuration = t.blocks ? t.end - t.start : 0;
    s.acquisitionChannelNumber = m_setup.acquisitionNumber;
    s.samplingFrequency = m_setup.fs;
    s.unitsConversionFactor = m_setup.conversionFactor;
    s.unitsDescription = m_setup.unit;
    s.maximumNativeSampleValue = t.haveExtrema ? t.maximum * m_setup.conversionFactor : 0.0;
    s.minimumNativeSampleValue = t.haveExtrema ? t.minimum * m_setup.conversionFactor : 0.0;
    s.startSample = m_setup.startSample;
    s.numberOfSamples = t.samples;
    s.numberOfBlocks = t.blocks;
    s.maximumBlockBytes = t.maxBlockBytes;
    s.maximumBlockSamples = t.maxBlockSamples;
    s.maximumDifferenceBytes = t.maxDifferenceBytes;
    s.blockInterval = t.blocks ? t.blockInterval(m_setup.fs)
                               : static_cast<std::int64_t>(std::llround(m_setup.blockSamples * 1e6 / m_setup.fs));
    s.numberOfDiscontinuities = t.discontinuities;
    s.maximumContiguousBlocks = t.maxRunBlocks;
    s.maximumContiguousBlockBytes = t.maxRunBytes;
    s.maximumContiguousSamples = t.maxRunSamples;
    m.section3 = m_section3;
    return m;
}

} // namespace lv::formats::mef3
