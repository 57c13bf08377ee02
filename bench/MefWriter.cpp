// Builds the three files of a MEF 3.0 segment field by field; CRCs as meflib writes them (body first, then header).
#include "MefWriter.h"

#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

namespace lv::bench {

namespace {

namespace le = lv::core::le;
using lv::formats::mef3::crc32;

constexpr std::size_t kHeaderBytes = 1024;
constexpr std::size_t kMetadataBytes = 16384;
constexpr std::size_t kIndexEntryBytes = 56;
constexpr std::int64_t kNoTime = std::numeric_limits<std::int64_t>::min();

template <typename T>
void put(std::vector<std::uint8_t>& b, std::size_t at, T value)
{
    le::store<T>(b.data() + at, value);
}

void putText(std::vector<std::uint8_t>& b, std::size_t at, std::size_t size, const std::string& text)
{
    std::memcpy(b.data() + at, text.data(), std::min(text.size(), size - 1)); // the field is zero-filled
}

// Body CRC over [1024, end) at offset 4, then the header CRC over [4, 1024) at offset 0.
void sealFile(std::vector<std::uint8_t>& file)
{
    put<std::uint32_t>(file, 4, crc32(std::span(file).subspan(kHeaderBytes)));
    put<std::uint32_t>(file, 0, crc32(std::span(file).subspan(4, kHeaderBytes - 4)));
}

bool writeFile(const std::string& path, const std::vector<std::uint8_t>& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out.flush());
}

} // namespace

SegmentWriter::SegmentWriter(SegmentSpec spec) : m_spec(std::move(spec)), m_data(kHeaderBytes, 0) {}

std::int64_t SegmentWriter::storedTime(std::int64_t trueTime) const { return -(trueTime - m_spec.recordingTimeOffset); }

std::int64_t SegmentWriter::trueTimeOfSample(std::int64_t sample) const
{
    return m_spec.startTime + std::llround(static_cast<double>(sample) * 1e6 / m_spec.fs);
}

void SegmentWriter::addBlock(std::span<const std::int32_t> samples)
{
    Entry e;
    e.fileOffset = static_cast<std::int64_t>(m_data.size());
    e.startTime = storedTime(trueTimeOfSample(m_samples));
    e.startSample = m_samples;
    e.samples = static_cast<std::uint32_t>(samples.size());
    e.block = m_encoder.encode(samples, e.startTime, m_entries.empty(), m_data);
    m_entries.push_back(e);
    m_samples += static_cast<std::int64_t>(samples.size());
}

std::vector<std::uint8_t> SegmentWriter::universalHeader(const char* type, std::int64_t entries, std::int64_t maxEntry) const
{
    std::vector<std::uint8_t> h(kHeaderBytes, 0);
    std::memcpy(h.data() + 8, type, 4);
    h[13] = 3; // MEF 3.0, little-endian
    h[14] = 0;
    h[15] = 1;
    put<std::int64_t>(h, 16, storedTime(trueTimeOfSample(0)));
    put<std::int64_t>(h, 24, storedTime(trueTimeOfSample(m_samples)));
    put<std::int64_t>(h, 32, entries);
    put<std::int64_t>(h, 40, maxEntry);
    put<std::int32_t>(h, 48, 0); // segment number
    putText(h, 52, 256, m_spec.channel);
    putText(h, 308, 256, m_spec.session);
    return h;
}

std::vector<std::uint8_t> SegmentWriter::metadataFile() const
{
    std::vector<std::uint8_t> m = universalHeader("tmet", 1, static_cast<std::int64_t>(kMetadataBytes));
    m.resize(kMetadataBytes, 0);
    m[1024] = static_cast<std::uint8_t>(-1); // sections 2 and 3: level 1 / 2 specified, stored in plain text
    m[1025] = static_cast<std::uint8_t>(-2);

    std::int64_t maxBytes = 0, blockBytes = 0;
    std::uint32_t maxSamples = 0, maxDifference = 0;
    std::int32_t hi = std::numeric_limits<std::int32_t>::min(), lo = std::numeric_limits<std::int32_t>::max();
    for (const Entry& e : m_entries) {
        maxBytes = std::max<std::int64_t>(maxBytes, e.block.blockBytes);
        blockBytes += e.block.blockBytes;
        maxSamples = std::max(maxSamples, e.samples);
        maxDifference = std::max(maxDifference, e.block.differenceBytes);
        hi = std::max(hi, e.block.maximum);
        lo = std::min(lo, e.block.minimum);
    }
    const auto blocks = static_cast<std::int64_t>(m_entries.size());
    putText(m, 2560, 2048, "synthetic EEG-like benchmark signal");
    put<std::int64_t>(m, 6656, trueTimeOfSample(m_samples) - trueTimeOfSample(0)); // recording duration
    put<std::int64_t>(m, 8712, m_spec.acquisitionChannel);
    put<double>(m, 8720, m_spec.fs);
    put<double>(m, 8728, 0.5);  // high-pass setting
    put<double>(m, 8736, 70.0); // low-pass setting
    put<double>(m, 8744, -1.0); // no notch
    put<double>(m, 8752, 50.0); // AC line
    put<double>(m, 8760, m_spec.uvPerCount);
    putText(m, 8768, 128, "uV");
    put<double>(m, 8896, hi * m_spec.uvPerCount);
    put<double>(m, 8904, lo * m_spec.uvPerCount);
    put<std::int64_t>(m, 8912, 0); // start sample
    put<std::int64_t>(m, 8920, m_samples);
    put<std::int64_t>(m, 8928, blocks);
    put<std::int64_t>(m, 8936, maxBytes);
    put<std::uint32_t>(m, 8944, maxSamples);
    put<std::uint32_t>(m, 8948, maxDifference);
    put<std::int64_t>(m, 8952, blocks > 1 ? trueTimeOfSample(maxSamples) - trueTimeOfSample(0) : -1); // block interval
    put<std::int64_t>(m, 8960, 1); // the segment start is the only discontinuity
    put<std::int64_t>(m, 8968, blocks);
    put<std::int64_t>(m, 8976, blockBytes);
    put<std::int64_t>(m, 8984, m_samples);
    put<std::int64_t>(m, 13312, m_spec.recordingTimeOffset);
    put<std::int64_t>(m, 13320, kNoTime); // DST start / end
    put<std::int64_t>(m, 13328, kNoTime);
    put<std::int32_t>(m, 13336, 0); // GMT offset
    putText(m, 13596, 128, "bench");
    sealFile(m);
    return m;
}

std::vector<std::uint8_t> SegmentWriter::indexFile() const
{
    std::vector<std::uint8_t> x = universalHeader("tidx", static_cast<std::int64_t>(m_entries.size()), kIndexEntryBytes);
    x.resize(kHeaderBytes + m_entries.size() * kIndexEntryBytes, 0);
    for (std::size_t i = 0; i < m_entries.size(); ++i) {
        const Entry& e = m_entries[i];
        const std::size_t at = kHeaderBytes + i * kIndexEntryBytes;
        put<std::int64_t>(x, at + 0, e.fileOffset);
        put<std::int64_t>(x, at + 8, e.startTime);
        put<std::int64_t>(x, at + 16, e.startSample);
        put<std::uint32_t>(x, at + 24, e.samples);
        put<std::uint32_t>(x, at + 28, e.block.blockBytes);
        put<std::int32_t>(x, at + 32, e.block.maximum);
        put<std::int32_t>(x, at + 36, e.block.minimum);
        x[at + 44] = e.block.flags;
    }
    sealFile(x);
    return x;
}

bool SegmentWriter::write(const std::string& base) const
{
    std::uint32_t maxSamples = 0;
    for (const Entry& e : m_entries) maxSamples = std::max(maxSamples, e.samples);
    std::vector<std::uint8_t> data = m_data;
    const std::vector<std::uint8_t> header = universalHeader("tdat", static_cast<std::int64_t>(m_entries.size()), maxSamples);
    std::copy(header.begin(), header.end(), data.begin());
    sealFile(data);
    return writeFile(base + ".tdat", data) && writeFile(base + ".tidx", indexFile()) &&
           writeFile(base + ".tmet", metadataFile());
}

} // namespace lv::bench
