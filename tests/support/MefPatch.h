// Patching one field of a MEF file in a test's copy of a session, with its CRCs sealed again.
#pragma once

#include "core/LittleEndian.h"
#include "formats/mef3/Crc32.h"
#include "formats/mef3/UniversalHeader.h"
#include "formats/mef3/Validator.h"
#include "support/TestSupport.h"

#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace lv::test {

// The `ext` file (tmet, tidx, tdat) of the LA1 segment of a copy of mef3/meflib/meflib_rto.mefd.
inline std::filesystem::path meflibRtoSegmentFile(const std::filesystem::path& session, const std::string& ext)
{
    return session / "LA1.timd/LA1-000000.segd" / ("LA1-000000." + ext);
}

// Stores `value` at `offset` of `file` and seals its header and body CRCs again.
template <typename T>
void patchSealed(const std::filesystem::path& file, std::size_t offset, T value)
{
    std::vector<std::uint8_t> bytes = readBytes(file);
    core::le::store(bytes.data() + offset, value);
    formats::mef3::sealFile(bytes);
    writeBytes(file, bytes);
}

// What validate says of `session`, as "path @offset: what" lines (a failure to walk it fails the test).
inline std::vector<std::string> validationLines(const std::filesystem::path& session)
{
    auto found = formats::mef3::validateSession(session.string(), "");
    EXPECT_TRUE(found.ok()) << found.error().describe();
    std::vector<std::string> lines;
    if (found)
        for (const formats::mef3::Problem& p : *found)
            lines.push_back(p.path + " @" + std::to_string(p.offset) + ": " + p.what);
    return lines;
}

// LA1 of meflib_rto: 28 blocks of 2560 samples at 256 Hz (10 s each, two 10 s gaps) over 300 s, stored as offset
// times; its first block starts at kMeflibRtoStart (2024-01-01T10:00:00Z), stored as kMeflibRtoStoredStart.
inline constexpr std::int64_t kMeflibRtoStart = 1'704'103'200'000'000;
inline constexpr std::int64_t kMeflibRtoStoredStart = -18'000'000'000;

// A test's own copy of mef3/meflib/meflib_rto.mefd, whose LA1 segment files a test damages with sealed CRCs.
class MeflibRtoCopy : public ::testing::Test {
protected:
    void SetUp() override
    {
        session = dir.path() / "s.mefd";
        copyTree(testdata() / "mef3/meflib/meflib_rto.mefd", session);
    }
    std::filesystem::path segmentFile(const std::string& ext) const { return meflibRtoSegmentFile(session, ext); }
    // Stores `value` at `offset` of the LA1 segment's `ext` file and seals its CRCs again.
    template <typename T>
    void patch(const std::string& ext, std::size_t offset, T value)
    {
        patchSealed(segmentFile(ext), offset, value);
    }
    // Stores `value` at `offset` of LA1's first RED block header (byte 1024 of its .tdat) and reseals the block CRC.
    template <typename T>
    void patchBlock(std::size_t offset, T value)
    {
        constexpr std::size_t kFirstBlock = 1024;
        std::vector<std::uint8_t> bytes = readBytes(segmentFile("tdat"));
        core::le::store(bytes.data() + kFirstBlock + offset, value);
        const auto size = core::le::load<std::uint32_t>(bytes.data() + kFirstBlock + 36);
        core::le::store(bytes.data() + kFirstBlock,
                        formats::mef3::crc32(std::span(bytes).subspan(kFirstBlock + 4, size - 4)));
        writeBytes(segmentFile("tdat"), bytes);
    }
    // What validate says of the copy.
    std::vector<std::string> problems() const { return validationLines(session); }

    TempDir dir;
    std::filesystem::path session;
};

} // namespace lv::test
