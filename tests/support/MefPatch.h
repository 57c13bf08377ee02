// Patching one field of a MEF file in a test's copy of a session, with its CRCs sealed again.
#pragma once

#include "core/LittleEndian.h"
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

} // namespace lv::test
