// Damaged sessions made in a temp dir: truncations and flipped bytes in every file type give a clear error
// naming the file, or valid data with a warning when the damage is confined to one block. Never a crash.
#include "support/TestSupport.h"

#include "core/Recording.h"
#include "formats/mef3/MefRecording.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;

struct Outcome {
    bool opened = false;
    bool read = false;
    core::Error error;
    std::vector<std::string> warnings;
};

// Opens and decodes every channel completely, checking block CRCs.
Outcome openAndReadAll(const fs::path& session, bool skipDamaged = false)
{
    Outcome o;
    auto r = openMef3(session.string(), {});
    if (!r.ok()) {
        o.error = r.error();
        return o;
    }
    o.opened = true;
    o.warnings = (*r)->info().warnings;
    std::vector<std::size_t> channels;
    for (std::size_t i = 0; i < (*r)->info().channels.size(); ++i) channels.push_back(i);
    core::ReadControl control;
    control.verifyCrc = true;
    control.skipDamagedBlocks = skipDamaged;
    auto samples = core::readRange(**r, channels, {(*r)->info().start, (*r)->info().end}, control);
    for (std::string& w : (*r)->takeWarnings()) o.warnings.push_back(std::move(w));
    if (!samples.ok()) o.error = samples.error();
    o.read = samples.ok();
    return o;
}

class Damaged : public ::testing::Test {
protected:
    void SetUp() override
    {
        session = dir.path() / "s.mefd";
        test::copyTree(test::testdata() / "mef3/meflib/meflib_rto.mefd", session);
        fs::copy(test::testdata() / "mef3/legacy/with_annotations.mefd/ch1.timd/ch1.rdat",
                 session / "LA2.timd/LA2.rdat");
        fs::copy(test::testdata() / "mef3/legacy/with_annotations.mefd/ch1.timd/ch1.ridx",
                 session / "LA2.timd/LA2.ridx");
    }
    fs::path segmentFile(const std::string& ext) const
    {
        return session / "LA1.timd/LA1-000000.segd" / ("LA1-000000." + ext);
    }

    test::TempDir dir;
    fs::path session;
};

TEST_F(Damaged, IntactCopyReadsCleanly)
{
    const Outcome o = openAndReadAll(session);
    ASSERT_TRUE(o.read) << o.error.describe();
    EXPECT_TRUE(o.warnings.empty());
}

TEST_F(Damaged, EveryTruncationOfEveryFileIsAnErrorOrAWarning)
{
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(session))
        if (e.is_regular_file()) files.push_back(e.path());
    ASSERT_EQ(files.size(), 8u);
    for (const fs::path& file : files) {
        const std::vector<std::uint8_t> original = test::readBytes(file);
        for (std::size_t cut : {std::size_t{0}, std::size_t{10}, std::size_t{1023}, std::size_t{1024},
                                std::size_t{1030}, original.size() / 2, original.size() - 1}) {
            SCOPED_TRACE(file.filename().string() + " cut at " + std::to_string(cut));
            test::writeBytes(
                file, std::vector<std::uint8_t>(original.begin(), original.begin() + static_cast<std::ptrdiff_t>(cut)));
            const Outcome o = openAndReadAll(session);
            if (!o.read) {
                EXPECT_NE(o.error.path.find(file.filename().string()), std::string::npos) << o.error.describe();
                EXPECT_FALSE(o.error.message.empty());
            } else {
                const bool records = file.extension() == ".rdat" || file.extension() == ".ridx";
                EXPECT_TRUE(records || !o.warnings.empty()) << "a truncated data file must not read silently";
            }
        }
        test::writeBytes(file, original);
    }
}

TEST_F(Damaged, FlippedBytesInHeadersIndicesAndBlocksAreCaught)
{
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(session))
        if (e.is_regular_file() && e.path().extension() != ".ridx") files.push_back(e.path());
    for (const fs::path& file : files) {
        const std::vector<std::uint8_t> original = test::readBytes(file);
        for (std::size_t at = 0; at < original.size(); at += std::max<std::size_t>(1, original.size() / 23) + 13) {
            SCOPED_TRACE(file.filename().string() + " byte " + std::to_string(at));
            std::vector<std::uint8_t> bytes = original;
            bytes[at] ^= 0x5A;
            test::writeBytes(file, bytes);
            const Outcome o = openAndReadAll(session);
            if (!o.read) {
                EXPECT_NE(o.error.path.find(file.filename().string()), std::string::npos) << o.error.describe();
            } else if (file.extension() == ".rdat") {
                EXPECT_FALSE(o.warnings.empty()) << "a damaged record must be reported";
            } else {
                ADD_FAILURE() << "damage in " << file.filename() << " went unnoticed";
            }
        }
        test::writeBytes(file, original);
    }
}

TEST_F(Damaged, TruncatedMetadataNamesFileAndSizes)
{
    const fs::path tmet = segmentFile("tmet");
    auto bytes = test::readBytes(tmet);
    bytes.resize(5000);
    test::writeBytes(tmet, bytes);
    const Outcome o = openAndReadAll(session);
    ASSERT_FALSE(o.opened);
    EXPECT_EQ(o.error.code, core::ErrorCode::Truncated);
    EXPECT_EQ(o.error.path, tmet.string());
    EXPECT_EQ(o.error.message, "metadata file has 5000 of its 16384 bytes");
}

TEST_F(Damaged, HeaderFlipIsACrcMismatchAtByteZero)
{
    const fs::path tidx = segmentFile("tidx");
    auto bytes = test::readBytes(tidx);
    bytes[300] ^= 1;
    test::writeBytes(tidx, bytes);
    const Outcome o = openAndReadAll(session);
    EXPECT_EQ(o.error.code, core::ErrorCode::CrcMismatch);
    EXPECT_EQ(o.error.describe(), tidx.string() + ": universal header CRC mismatch (at byte 0)");
}

// A flipped byte inside one RED block: an error naming the block with CRC checks, or (when asked) that
// block's samples read as missing with a warning while every other sample stays exact.
TEST_F(Damaged, DamagedBlockIsConfinedToItsSamples)
{
    const fs::path tdat = segmentFile("tdat");
    auto reference = openMef3(session.string(), {});
    ASSERT_TRUE(reference.ok());
    const BlockRef block = (*reference)->details()[0].blocks[3];
    auto bytes = test::readBytes(tdat);
    bytes[static_cast<std::size_t>(block.fileOffset) + 400] ^= 0x10;
    test::writeBytes(tdat, bytes);

    const Outcome strict = openAndReadAll(session);
    EXPECT_EQ(strict.error.code, core::ErrorCode::CrcMismatch);
    EXPECT_EQ(strict.error.describe(),
              tdat.string() + ": RED block 3: CRC mismatch (at byte " + std::to_string(block.fileOffset) + ")");

    auto damaged = openMef3(session.string(), {});
    ASSERT_TRUE(damaged.ok());
    core::ReadControl control;
    control.verifyCrc = true;
    control.skipDamagedBlocks = true;
    const std::size_t channels[] = {0};
    const core::TimeRange all{(*damaged)->info().start, (*damaged)->info().end};
    auto got = core::readRange(**damaged, channels, all, control);
    ASSERT_TRUE(got.ok()) << got.error().describe();
    ASSERT_EQ((*damaged)->takeWarnings().size(), 1u);
    const auto truth = test::readTruth(test::testdata() / "mef3/meflib/meflib_rto.truth.csv").at("LA1");
    for (std::size_t i = 0; i < truth.raw.size(); ++i) {
        const bool inBlock = static_cast<std::int64_t>(i) >= block.gridIndex &&
                             static_cast<std::int64_t>(i) < block.gridIndex + block.sampleCount;
        if (inBlock || !truth.raw[i])
            ASSERT_FALSE(got->front().valid(i)) << i;
        else
            ASSERT_EQ(got->front().raw[i], *truth.raw[i]) << i;
    }
}

TEST_F(Damaged, TruncatedDataFileKeepsCompleteBlocksWithAWarning)
{
    const fs::path tdat = segmentFile("tdat");
    auto bytes = test::readBytes(tdat);
    bytes.resize(bytes.size() - 100);
    test::writeBytes(tdat, bytes);
    const Outcome o = openAndReadAll(session);
    ASSERT_TRUE(o.read) << o.error.describe();
    ASSERT_EQ(o.warnings.size(), 1u);
    EXPECT_NE(o.warnings[0].find("lies outside the file"), std::string::npos) << o.warnings[0];
}

TEST_F(Damaged, MissingSessionIsNotFound)
{
    auto r = openMef3((dir.path() / "nothing.mefd").string(), {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::NotFound);
}

} // namespace
} // namespace lv::formats::mef3
