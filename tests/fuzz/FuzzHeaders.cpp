// libFuzzer target: the MEF 3.0 universal header, .tmet, .tidx and .rdat parsers, all run on each input.
//
// Built twice: fuzz_headers feeds the bytes as they are (the CRC and file-type checks reject most mutations),
// fuzz_headers_crc (LONGVIEW_FUZZ_FIX_CRC=1) first stamps each parser's file type at byte 8 and recomputes the
// body CRC (over [1024, end), stored at 4) and the header CRC (over [4, 1024), stored at 0).
#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/Metadata.h"
#include "formats/mef3/Password.h"
#include "formats/mef3/Records.h"
#include "formats/mef3/TimeSeriesIndex.h"
#include "formats/mef3/UniversalHeader.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#ifndef LONGVIEW_FUZZ_FIX_CRC
#define LONGVIEW_FUZZ_FIX_CRC 0
#endif

namespace mef3 = lv::formats::mef3;
namespace le = lv::core::le;

namespace {

using Bytes = std::span<const std::uint8_t>;

const std::string kPath = "fuzz";

// Level 1 and 2 with arbitrary keys: encrypted sections and records get decrypted (to garbage) and parsed.
const mef3::Access& fakeKeys()
{
    static const mef3::Access access = [] {
        mef3::Access a;
        a.level = 2;
        mef3::PasswordBytes k1{}, k2{};
        for (std::size_t i = 0; i < k1.size(); ++i) {
            k1[i] = static_cast<std::uint8_t>(0x11 * i + 1);
            k2[i] = static_cast<std::uint8_t>(0xA5 ^ (7 * i));
        }
        a.level1Key = k1;
        a.level2Key = k2;
        return a;
    }();
    return access;
}

// The input as one parser sees it: untouched, or (fix mode) with `type` stamped and both CRCs made to match.
// `bodyEnd` bounds the body CRC (a .tmet's covers only its first 16384 bytes).
class Input {
public:
    Input(Bytes data) : m_data(data) {}

    Bytes forType([[maybe_unused]] const char* type, [[maybe_unused]] std::size_t bodyEnd = SIZE_MAX)
    {
#if LONGVIEW_FUZZ_FIX_CRC
        if (m_data.size() < mef3::kUniversalHeaderBytes) return m_data;
        m_copy.assign(m_data.begin(), m_data.end());
        if (type) std::memcpy(&m_copy[8], type, 4);
        const std::size_t end = std::min(bodyEnd, m_copy.size());
        const Bytes all(m_copy);
        le::store<std::uint32_t>(
            &m_copy[4], mef3::crc32(all.subspan(mef3::kUniversalHeaderBytes, end - mef3::kUniversalHeaderBytes)));
        le::store<std::uint32_t>(&m_copy[0], mef3::crc32(all.subspan(4, mef3::kUniversalHeaderBytes - 4)));
        return m_copy;
#else
        return m_data;
#endif
    }

private:
    Bytes m_data;
    std::vector<std::uint8_t> m_copy;
};

void fuzzUniversalHeader(Input& input, Bytes raw)
{
    // The header's own type, so the parse goes past the type check whatever it is.
    const std::string type = raw.size() >= 12 ? le::text(raw, 8, 4) : std::string();
    const Bytes file = input.forType(nullptr);
    auto h = mef3::parseUniversalHeader(file, kPath, type.c_str());
    if (h) (void)mef3::checkBodyCrc(*h, file, kPath);
}

void fuzzMetadata(Input& input)
{
    const Bytes file = input.forType("tmet", mef3::kMetadataFileBytes);
    (void)mef3::parseTimeSeriesMetadata(file, kPath, mef3::Access{});
    (void)mef3::parseTimeSeriesMetadata(file, kPath, fakeKeys());
}

void fuzzIndex(Input& input)
{
    const Bytes file = input.forType("tidx");
    (void)mef3::parseTimeSeriesIndex(file, kPath);
}

void fuzzRecords(Input& input)
{
    const Bytes file = input.forType("rdat");
    (void)mef3::parseRecords(file, kPath, mef3::Access{});
    (void)mef3::parseRecords(file, kPath, fakeKeys());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const Bytes raw(data, size);
    Input input(raw);
    fuzzUniversalHeader(input, raw);
    fuzzMetadata(input);
    fuzzIndex(input);
    fuzzRecords(input);
    return 0;
}
