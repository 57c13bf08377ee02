// Channel writing: split into blocks at gaps, encode in parallel, append in order, account meflib's totals.
#include "formats/mef3/ChannelWriter.h"

#include "core/LittleEndian.h"
#include "core/Recording.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/RedEncoder.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace lv::formats::mef3 {

using core::ErrorCode;
using core::makeError;

namespace {

core::Error ioError(const std::string& what, const std::string& path)
{
    return makeError(ErrorCode::Io, what + ": " + std::strerror(errno), path);
}

} // namespace

ChannelWriter::ChannelWriter(ChannelWriterSetup setup) : m_setup(std::move(setup)) {}

ChannelWriter::~ChannelWriter()
{
    if (m_data) std::fclose(m_data);
}

std::string ChannelWriter::segmentPath(const char* extension) const
{
    const std::string base = m_setup.name + "-000000";
    return m_setup.channelDir + "/" + base + ".segd/" + base + "." + extension;
}

core::Status ChannelWriter::open()
{
    const std::string segDir = m_setup.channelDir + "/" + m_setup.name + "-000000.segd";
    if (::mkdir(segDir.c_str(), 0777) != 0) return ioError("cannot create the segment directory", segDir);
    const std::string path = segmentPath("tdat");
    m_data = std::fopen(path.c_str(), "wb");
    if (!m_data) return ioError("cannot create the data file", path);
    const std::vector<std::uint8_t> placeholder(kUniversalHeaderBytes, 0);
    if (std::fwrite(placeholder.data(), 1, placeholder.size(), m_data) != placeholder.size())
        return ioError("cannot write the data file", path);
    m_dataBytes = kUniversalHeaderBytes;
    m_bodyCrc = kCrcStart;
    return {};
}

std::vector<ChannelWriter::Block> ChannelWriter::splitIntoBlocks(core::SampleGrid grid, std::int64_t firstIndex,
                                                                 std::span<const std::int32_t> samples)
{
    std::vector<Block> blocks;
    const double halfSample = 0.5e6 / m_setup.fs;
    core::Uutc expected = m_expectedNext;
    std::size_t i = 0;
    while (i < samples.size()) {
        if (samples[i] == core::kNoSample) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < samples.size() && end - i < m_setup.blockSamples && samples[end] != core::kNoSample) ++end;
        Block b{samples.subspan(i, end - i), grid.timeOf(firstIndex + static_cast<std::int64_t>(i)), false};
        b.discontinuity = expected == core::kNoTime || std::abs(static_cast<double>(b.start - expected)) > halfSample;
        expected = grid.timeOf(firstIndex + static_cast<std::int64_t>(end));
        blocks.push_back(b);
        i = end;
    }
    // Samples that are all missing at the end still break continuity with what follows.
    m_expectedNext = samples.empty() || samples.back() != core::kNoSample ? expected : core::kNoTime;
    return blocks;
}

void ChannelWriter::account(const Block& b, std::uint32_t blockBytes, std::uint32_t differenceBytes, std::int32_t lo,
                            std::int32_t hi)
{
    const auto count = static_cast<std::uint32_t>(b.samples.size());
    if (m_blocks == 0) m_start = b.start;
    if (b.discontinuity) {
        ++m_discontinuities;
        m_runBlocks = m_runBytes = m_runSamples = 0;
    }
    ++m_runBlocks, m_runBytes += blockBytes, m_runSamples += count;
    m_maxRunBlocks = std::max(m_maxRunBlocks, m_runBlocks);
    m_maxRunBytes = std::max(m_maxRunBytes, m_runBytes);
    m_maxRunSamples = std::max(m_maxRunSamples, m_runSamples);
    m_maxBlockBytes = std::max(m_maxBlockBytes, blockBytes);
    m_maxBlockSamples = std::max(m_maxBlockSamples, count);
    m_maxDifferenceBytes = std::max(m_maxDifferenceBytes, differenceBytes);
    if (lo != INT32_MIN) {
        m_minimum = m_haveExtrema ? std::min(m_minimum, lo) : lo;
        m_maximum = m_haveExtrema ? std::max(m_maximum, hi) : hi;
        m_haveExtrema = true;
    }
    ++m_blocks;
    m_samples += count;
    m_end = b.start + static_cast<core::Uutc>(std::llround(static_cast<double>(count) * 1e6 / m_setup.fs));
}

core::Status ChannelWriter::writeBlocks(const std::vector<Block>& blocks)
{
    std::vector<std::vector<std::uint8_t>> encoded(blocks.size());
    std::vector<RedBlockSummary> summaries(blocks.size());
    auto encode = [&](std::size_t k) {
        thread_local RedEncoder encoder;
        summaries[k] = encoder.encode(blocks[k].samples, blocks[k].start, blocks[k].discontinuity, encoded[k]);
    };
    core::InlineRunner inlineRunner;
    (m_setup.runner ? *m_setup.runner : static_cast<core::TaskRunner&>(inlineRunner))
        .parallelFor(blocks.size(), encode);
    for (std::size_t k = 0; k < blocks.size(); ++k) {
        const std::vector<std::uint8_t>& bytes = encoded[k];
        if (std::fwrite(bytes.data(), 1, bytes.size(), m_data) != bytes.size())
            return ioError("cannot write the data file", segmentPath("tdat"));
        IndexEntry e;
        e.fileOffset = static_cast<std::int64_t>(m_dataBytes);
        e.startTime = blocks[k].start;
        e.startSample = m_samples;
        e.sampleCount = static_cast<std::uint32_t>(blocks[k].samples.size());
        e.blockBytes = summaries[k].blockBytes;
        e.maximumSampleValue = summaries[k].maximum;
        e.minimumSampleValue = summaries[k].minimum;
        e.redFlags = summaries[k].flags;
        appendIndexEntry(e, m_index);
        m_bodyCrc = crc32Update(m_bodyCrc, bytes);
        m_dataBytes += bytes.size();
        account(blocks[k], summaries[k].blockBytes, summaries[k].differenceBytes, summaries[k].minimum,
                summaries[k].maximum);
    }
    return {};
}

core::Status ChannelWriter::append(core::SampleGrid grid, std::int64_t firstIndex,
                                   std::span<const std::int32_t> samples)
{
    return writeBlocks(splitIntoBlocks(grid, firstIndex, samples));
}

UniversalHeader ChannelWriter::header(const char* type, std::int64_t entries, std::int64_t maxEntry) const
{
    UniversalHeader h;
    h.fileType = type;
    h.startTime = m_blocks ? m_start : kUutcNoEntry;
    h.endTime = m_blocks ? m_end : kUutcNoEntry;
    h.numberOfEntries = entries;
    h.maximumEntrySize = maxEntry;
    h.segmentNumber = 0;
    h.channelName = m_setup.name;
    h.sessionName = m_setup.sessionName;
    // Deterministic identifiers: the same input gives the same bytes.
    const std::string seed = m_setup.sessionName + "/" + m_setup.name;
    h.levelUuid = sha256First16(std::span(reinterpret_cast<const std::uint8_t*>(seed.data()), seed.size()));
    const std::string fileSeed = seed + "." + type;
    h.fileUuid = sha256First16(std::span(reinterpret_cast<const std::uint8_t*>(fileSeed.data()), fileSeed.size()));
    h.passwords = m_setup.validation;
    return h;
}

TimeSeriesMetadata ChannelWriter::metadata() const
{
    TimeSeriesMetadata m;
    m.header = header("tmet", 1, static_cast<std::int64_t>(kMetadataFileBytes));
    m.section2Encryption = m_setup.keys.level1Key ? 1 : -1;
    m.section3Encryption = m_setup.keys.level2Key ? 2 : -2;
    TimeSeriesSection2& s = m.section2;
    s.channelDescription = m_setup.description;
    s.recordingDuration = m_blocks ? m_end - m_start : 0;
    s.acquisitionChannelNumber = m_setup.acquisitionNumber;
    s.samplingFrequency = m_setup.fs;
    s.unitsConversionFactor = m_setup.conversionFactor;
    s.unitsDescription = m_setup.unit;
    s.maximumNativeSampleValue = m_haveExtrema ? m_maximum * m_setup.conversionFactor : 0.0;
    s.minimumNativeSampleValue = m_haveExtrema ? m_minimum * m_setup.conversionFactor : 0.0;
    s.numberOfSamples = m_samples;
    s.numberOfBlocks = m_blocks;
    s.maximumBlockBytes = m_maxBlockBytes;
    s.maximumBlockSamples = m_maxBlockSamples;
    s.maximumDifferenceBytes = m_maxDifferenceBytes;
    s.blockInterval = static_cast<std::int64_t>(std::llround(m_setup.blockSamples * 1e6 / m_setup.fs));
    s.numberOfDiscontinuities = m_discontinuities;
    s.maximumContiguousBlocks = m_maxRunBlocks;
    s.maximumContiguousBlockBytes = m_maxRunBytes;
    s.maximumContiguousSamples = m_maxRunSamples;
    m.section3.recordingTimeOffset = 0; // times are stored as true uUTC
    m.section3.dstStartTime = m.section3.dstEndTime = 0;
    return m;
}

core::Status ChannelWriter::writeWhole(const std::string& path, const std::vector<std::uint8_t>& bytes) const
{
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return ioError("cannot create", path);
    const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0 &&
                    ::fsync(::fileno(f)) == 0;
    if (std::fclose(f) != 0 || !ok) return ioError("cannot write", path);
    return {};
}

core::Status ChannelWriter::finish()
{
    // .tdat: the header goes over the placeholder; its body CRC was extended block by block.
    std::vector<std::uint8_t> head(kUniversalHeaderBytes);
    writeUniversalHeader(header("tdat", m_blocks, m_maxBlockSamples), head);
    core::le::store(&head[4], m_bodyCrc);
    core::le::store(&head[0], crc32(std::span(head).subspan(4)));
    const std::string tdat = segmentPath("tdat");
    if (std::fseek(m_data, 0, SEEK_SET) != 0 || std::fwrite(head.data(), 1, head.size(), m_data) != head.size() ||
        std::fflush(m_data) != 0 || ::fsync(::fileno(m_data)) != 0)
        return ioError("cannot write the data file", tdat);
    const int closed = std::fclose(m_data);
    m_data = nullptr;
    if (closed != 0) return ioError("cannot close the data file", tdat);

    std::vector<std::uint8_t> index(kUniversalHeaderBytes);
    index.insert(index.end(), m_index.begin(), m_index.end());
    writeUniversalHeader(header("tidx", m_blocks, static_cast<std::int64_t>(kIndexEntryBytes)), index);
    sealFile(index);
    LV_TRY(writeWhole(segmentPath("tidx"), index));
    return writeWhole(segmentPath("tmet"), serializeTimeSeriesMetadata(metadata(), m_setup.keys));
}

} // namespace lv::formats::mef3
