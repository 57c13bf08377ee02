// Metadata sections 1-3 of a .tmet file, read field by field after decryption.
#include "formats/mef3/Metadata.h"

#include "core/FieldReader.h"
#include "core/LittleEndian.h"

#include <algorithm>
#include <vector>

namespace lv::formats::mef3 {

namespace le = core::le;
using core::ErrorCode;
using core::makeError;

namespace {

constexpr std::size_t kSection2Offset = 2560;
constexpr std::size_t kSection2Bytes = 10752;
constexpr std::size_t kSection3Offset = 13312;
constexpr std::size_t kSection3Bytes = 3072;

// Decrypts a section in `bytes` when it is encrypted and the access allows; returns whether it is readable.
bool openSection(std::vector<std::uint8_t>& bytes, std::size_t offset, std::size_t size, int level,
                 const Access& access)
{
    if (level <= 0) return true;
    const auto& key = level == 1 ? access.level1Key : access.level2Key;
    if (access.level < level || !key) return false;
    aesDecrypt(*key, std::span(bytes).subspan(offset, size));
    return true;
}

TimeSeriesSection2 readSection2(core::FieldReader& f)
{
    TimeSeriesSection2 s;
    s.channelDescription = f.text(2560, 2048);
    s.sessionDescription = f.text(4608, 2048);
    s.recordingDuration = f.i64(6656);
    s.referenceDescription = f.text(6664, 2048);
    s.acquisitionChannelNumber = f.i64(8712);
    s.samplingFrequency = f.f64(8720);
    s.lowFrequencyFilter = f.f64(8728);
    s.highFrequencyFilter = f.f64(8736);
    s.notchFilter = f.f64(8744);
    s.acLineFrequency = f.f64(8752);
    s.unitsConversionFactor = f.f64(8760);
    s.unitsDescription = f.text(8768, 128);
    s.maximumNativeSampleValue = f.f64(8896);
    s.minimumNativeSampleValue = f.f64(8904);
    s.startSample = f.i64(8912);
    s.numberOfSamples = f.i64(8920);
    s.numberOfBlocks = f.i64(8928);
    s.maximumBlockBytes = f.i64(8936);
    s.maximumBlockSamples = f.u32(8944);
    s.maximumDifferenceBytes = f.u32(8948);
    s.blockInterval = f.i64(8952);
    s.numberOfDiscontinuities = f.i64(8960);
    s.maximumContiguousBlocks = f.i64(8968);
    s.maximumContiguousBlockBytes = f.i64(8976);
    s.maximumContiguousSamples = f.i64(8984);
    return s;
}

Section3 readSection3(core::FieldReader& f)
{
    Section3 s;
    s.recordingTimeOffset = f.i64(13312);
    s.dstStartTime = f.i64(13320);
    s.dstEndTime = f.i64(13328);
    s.gmtOffset = f.i32(13336);
    s.subjectName1 = f.text(13340, 128);
    s.subjectName2 = f.text(13468, 128);
    s.subjectId = f.text(13596, 128);
    s.recordingLocation = f.text(13724, 512);
    return s;
}

void writeSection2(const TimeSeriesSection2& s, std::vector<std::uint8_t>& b)
{
    le::storeText(b, 2560, 2048, s.channelDescription);
    le::storeText(b, 4608, 2048, s.sessionDescription);
    le::store(&b[6656], s.recordingDuration);
    le::storeText(b, 6664, 2048, s.referenceDescription);
    le::store(&b[8712], s.acquisitionChannelNumber);
    le::store(&b[8720], s.samplingFrequency);
    le::store(&b[8728], s.lowFrequencyFilter);
    le::store(&b[8736], s.highFrequencyFilter);
    le::store(&b[8744], s.notchFilter);
    le::store(&b[8752], s.acLineFrequency);
    le::store(&b[8760], s.unitsConversionFactor);
    le::storeText(b, 8768, 128, s.unitsDescription);
    le::store(&b[8896], s.maximumNativeSampleValue);
    le::store(&b[8904], s.minimumNativeSampleValue);
    le::store(&b[8912], s.startSample);
    le::store(&b[8920], s.numberOfSamples);
    le::store(&b[8928], s.numberOfBlocks);
    le::store(&b[8936], s.maximumBlockBytes);
    le::store(&b[8944], s.maximumBlockSamples);
    le::store(&b[8948], s.maximumDifferenceBytes);
    le::store(&b[8952], s.blockInterval);
    le::store(&b[8960], s.numberOfDiscontinuities);
    le::store(&b[8968], s.maximumContiguousBlocks);
    le::store(&b[8976], s.maximumContiguousBlockBytes);
    le::store(&b[8984], s.maximumContiguousSamples);
}

void writeSection3(const Section3& s, std::vector<std::uint8_t>& b)
{
    le::store(&b[13312], s.recordingTimeOffset);
    le::store(&b[13320], s.dstStartTime);
    le::store(&b[13328], s.dstEndTime);
    le::store(&b[13336], s.gmtOffset);
    le::storeText(b, 13340, 128, s.subjectName1);
    le::storeText(b, 13468, 128, s.subjectName2);
    le::storeText(b, 13596, 128, s.subjectId);
    le::storeText(b, 13724, 512, s.recordingLocation);
}

void encryptSection(std::vector<std::uint8_t>& b, std::size_t offset, std::size_t size, int level, const Access& keys)
{
    if (level <= 0) return;
    const auto& key = level == 1 ? keys.level1Key : keys.level2Key;
    if (key) aesEncrypt(*key, std::span(b).subspan(offset, size));
}

} // namespace

std::vector<std::uint8_t> serializeTimeSeriesMetadata(const TimeSeriesMetadata& m, const Access& keys)
{
    std::vector<std::uint8_t> b(kMetadataFileBytes, 0);
    UniversalHeader header = m.header;
    header.fileType = "tmet";
    header.numberOfEntries = 1;
    header.maximumEntrySize = static_cast<std::int64_t>(kMetadataFileBytes);
    writeUniversalHeader(header, b);
    b[1024] = static_cast<std::uint8_t>(static_cast<std::int8_t>(m.section2Encryption));
    b[1025] = static_cast<std::uint8_t>(static_cast<std::int8_t>(m.section3Encryption));
    writeSection2(m.section2, b);
    writeSection3(m.section3, b);
    encryptSection(b, kSection2Offset, kSection2Bytes, m.section2Encryption, keys);
    encryptSection(b, kSection3Offset, kSection3Bytes, m.section3Encryption, keys);
    sealFile(b);
    return b;
}

core::Result<TimeSeriesMetadata> parseTimeSeriesMetadata(std::span<const std::uint8_t> file, const std::string& path,
                                                         const Access& access)
{
    auto header = parseUniversalHeader(file, path, "tmet");
    if (!header) return header.error();
    if (file.size() < kMetadataFileBytes)
        return makeError(ErrorCode::Truncated,
                         "metadata file has " + std::to_string(file.size()) + " of its 16384 bytes", path,
                         static_cast<std::int64_t>(file.size()));
    LV_TRY(checkBodyCrc(*header, file.first(kMetadataFileBytes), path));

    TimeSeriesMetadata m;
    m.header = std::move(*header);
    // Signed bytes by the specification (<= 0: stored decrypted).
    m.section2Encryption = le::i8(file, 1024); // NOLINT(bugprone-signed-char-misuse)
    m.section3Encryption = le::i8(file, 1025); // NOLINT(bugprone-signed-char-misuse)
    std::vector<std::uint8_t> bytes(file.begin(), file.begin() + kMetadataFileBytes);
    m.section2Readable = openSection(bytes, kSection2Offset, kSection2Bytes, m.section2Encryption, access);
    m.section3Readable = openSection(bytes, kSection3Offset, kSection3Bytes, m.section3Encryption, access);
    core::FieldReader fields(bytes, path);
    if (m.section2Readable) m.section2 = readSection2(fields);
    if (m.section3Readable) m.section3 = readSection3(fields);
    LV_TRY(fields.status());
    return m;
}

} // namespace lv::formats::mef3
