// Universal header fields read one by one at their specified offsets.
#include "formats/mef3/UniversalHeader.h"

#include "core/FieldReader.h"
#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"

#include <algorithm>

namespace lv::formats::mef3 {

namespace le = core::le;
using core::ErrorCode;
using core::makeError;

core::Result<UniversalHeader> parseUniversalHeader(std::span<const std::uint8_t> b, const std::string& path,
                                                   const char* expectedType)
{
    if (b.size() < kUniversalHeaderBytes)
        return makeError(ErrorCode::Truncated,
                         "file is shorter (" + std::to_string(b.size()) +
                             " bytes) than the 1024-byte MEF universal header",
                         path, 0);
    UniversalHeader h;
    core::FieldReader f(b, path);
    h.headerCrc = f.u32(0);
    h.bodyCrc = f.u32(4);
    h.fileType = f.text(8, 4);
    h.versionMajor = f.u8(13);
    h.versionMinor = f.u8(14);
    h.byteOrder = f.u8(15);
    if (h.fileType != expectedType)
        return makeError(ErrorCode::Corrupt, "file type is \"" + h.fileType + "\", expected \"" + expectedType + "\"",
                         path, 8);
    if (crc32(b.subspan(4, kUniversalHeaderBytes - 4)) != h.headerCrc)
        return makeError(ErrorCode::CrcMismatch, "universal header CRC mismatch", path, 0);
    if (h.versionMajor != 3)
        return makeError(ErrorCode::Unsupported,
                         "MEF version " + std::to_string(h.versionMajor) + "." + std::to_string(h.versionMinor) +
                             " is not supported (only 3.x)",
                         path, 13);
    if (h.byteOrder != 1) return makeError(ErrorCode::Unsupported, "big-endian MEF files are not supported", path, 15);
    h.startTime = f.i64(16);
    h.endTime = f.i64(24);
    h.numberOfEntries = f.i64(32);
    h.maximumEntrySize = f.i64(40);
    h.segmentNumber = f.i32(48);
    h.channelName = f.text(52, 256);
    h.sessionName = f.text(308, 256);
    h.anonymizedName = f.text(564, 256);
    h.levelUuid = f.raw<16>(820);
    h.fileUuid = f.raw<16>(836);
    h.provenanceUuid = f.raw<16>(852);
    h.passwords.level1 = f.raw<16>(868);
    h.passwords.level2 = f.raw<16>(884);
    LV_TRY(f.status());
    return h;
}

core::Status checkBodyCrc(const UniversalHeader& header, std::span<const std::uint8_t> file, const std::string& path)
{
    if (file.size() < kUniversalHeaderBytes) return makeError(ErrorCode::Truncated, "file has no body", path, 0);
    if (crc32(file.subspan(kUniversalHeaderBytes)) != header.bodyCrc)
        return makeError(ErrorCode::CrcMismatch, "file body CRC mismatch", path, kUniversalHeaderBytes);
    return {};
}

void writeUniversalHeader(const UniversalHeader& h, std::span<std::uint8_t> b)
{
    std::fill_n(b.begin(), kUniversalHeaderBytes, std::uint8_t{0});
    le::storeText(b, 8, 5, h.fileType);
    b[13] = 3;
    b[14] = 0;
    b[15] = 1;
    le::store(&b[16], h.startTime);
    le::store(&b[24], h.endTime);
    le::store(&b[32], h.numberOfEntries);
    le::store(&b[40], h.maximumEntrySize);
    le::store(&b[48], h.segmentNumber);
    le::storeText(b, 52, 256, h.channelName);
    le::storeText(b, 308, 256, h.sessionName);
    le::storeText(b, 564, 256, h.anonymizedName);
    std::copy(h.levelUuid.begin(), h.levelUuid.end(), b.begin() + 820);
    std::copy(h.fileUuid.begin(), h.fileUuid.end(), b.begin() + 836);
    std::copy(h.provenanceUuid.begin(), h.provenanceUuid.end(), b.begin() + 852);
    std::copy(h.passwords.level1.begin(), h.passwords.level1.end(), b.begin() + 868);
    std::copy(h.passwords.level2.begin(), h.passwords.level2.end(), b.begin() + 884);
}

void sealFile(std::span<std::uint8_t> file)
{
    le::store(&file[4], crc32(file.subspan(kUniversalHeaderBytes)));
    le::store(&file[0], crc32(file.subspan(4, kUniversalHeaderBytes - 4)));
}

} // namespace lv::formats::mef3
