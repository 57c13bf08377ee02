// MefRecording::decodeBlocks: blocks of many channels decoded in one batch are those decodeBlock gives one by one,
// samples and errors alike, and a damaged block fails alone.
#include "support/TestSupport.h"

#include "formats/mef3/MefRecording.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;

// One batch entry with room of its own.
struct Slot {
    std::size_t channel = 0;
    std::size_t block = 0;
    std::vector<std::int32_t> out;
};

// Every block of every channel, the channels' blocks interleaved (block 0 of each channel, then block 1, ...).
std::vector<Slot> everyBlock(const MefRecording& r)
{
    std::vector<Slot> slots;
    std::size_t most = 0;
    for (std::size_t c = 0; c < r.info().channels.size(); ++c) most = std::max(most, r.blocks(c).size());
    for (std::size_t k = 0; k < most; ++k)
        for (std::size_t c = 0; c < r.info().channels.size(); ++c)
            if (k < r.blocks(c).size()) slots.push_back({c, k, std::vector<std::int32_t>(r.blocks(c)[k].count, 7)});
    return slots;
}

std::vector<core::BlockDecode> decodesOf(std::vector<Slot>& slots)
{
    std::vector<core::BlockDecode> decodes;
    for (Slot& s : slots) decodes.push_back({s.channel, s.block, s.out, {}});
    return decodes;
}

core::ReadControl crcChecked(bool skipDamaged = false)
{
    core::ReadControl control;
    control.verifyCrc = true;
    control.skipDamagedBlocks = skipDamaged;
    return control;
}

class EveryReferenceSession : public ::testing::TestWithParam<test::ManifestCase> {};

TEST_P(EveryReferenceSession, DecodesEveryBlockInOneBatchAsBlockByBlock)
{
    const test::ManifestCase& c = GetParam();
    auto r = openMef3((c.folder / (c.name + ".mefd")).string(), OpenOptions{c.password});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    std::vector<Slot> slots = everyBlock(**r);
    std::vector<core::BlockDecode> decodes = decodesOf(slots);
    (*r)->decodeBlocks(decodes, crcChecked());
    for (const Slot& s : slots) {
        std::vector<std::int32_t> one(s.out.size(), 9);
        const core::Status status = (*r)->decodeBlock(s.channel, s.block, one, crcChecked());
        const auto& d = decodes[static_cast<std::size_t>(&s - slots.data())];
        ASSERT_EQ(d.status.ok(), status.ok()) << "channel " << s.channel << " block " << s.block;
        if (!status.ok()) {
            EXPECT_EQ(d.status.error().describe(), status.error().describe());
            continue;
        }
        ASSERT_EQ(s.out, one) << "channel " << s.channel << " block " << s.block;
    }
}

INSTANTIATE_TEST_SUITE_P(Reference, EveryReferenceSession, ::testing::ValuesIn(test::allMefCases()),
                         [](const auto& info) { return info.param.name; });

class DamagedBatch : public ::testing::Test {
protected:
    void SetUp() override
    {
        session = dir.path() / "s.mefd";
        test::copyTree(test::testdata() / "mef3/meflib/meflib_rto.mefd", session);
        tdat = session / "LA1.timd/LA1-000000.segd/LA1-000000.tdat";
        auto r = openMef3(session.string(), {});
        ASSERT_TRUE(r.ok());
        damagedAt = (*r)->details()[0].blocks[3].fileOffset;
        auto bytes = test::readBytes(tdat);
        bytes[static_cast<std::size_t>(damagedAt) + 400] ^= 0x10; // inside block 3's coded bytes
        test::writeBytes(tdat, bytes);
        auto reopened = openMef3(session.string(), {});
        ASSERT_TRUE(reopened.ok());
        recording = std::move(*reopened);
    }

    test::TempDir dir;
    fs::path session, tdat;
    std::int64_t damagedAt = 0;
    std::unique_ptr<MefRecording> recording;
};

// Block 3 of LA1 fails with decodeBlock's error; its neighbours in the batch, and the blocks of the other
// channels, decode; a block that does not exist and an output too small fail alone with their own errors.
TEST_F(DamagedBatch, ADamagedBlockFailsAloneWithItsOwnError)
{
    std::vector<Slot> slots = everyBlock(*recording);
    std::vector<core::BlockDecode> decodes = decodesOf(slots);
    std::vector<std::int32_t> small(3), spare(recording->blocks(0)[0].count);
    decodes.push_back({0, recording->blocks(0).size(), spare, {}});
    decodes.push_back({0, 0, small, {}});
    recording->decodeBlocks(decodes, crcChecked());

    std::size_t failed = 0;
    for (std::size_t i = 0; i < slots.size(); ++i) {
        if (slots[i].channel == 0 && slots[i].block == 3) {
            ASSERT_FALSE(decodes[i].status.ok());
            EXPECT_EQ(decodes[i].status.error().describe(),
                      tdat.string() + ": RED block 3: CRC mismatch (at byte " + std::to_string(damagedAt) + ")");
            ++failed;
            continue;
        }
        ASSERT_TRUE(decodes[i].status.ok()) << decodes[i].status.error().describe();
        std::vector<std::int32_t> one(slots[i].out.size());
        ASSERT_TRUE(recording->decodeBlock(slots[i].channel, slots[i].block, one, crcChecked()).ok());
        ASSERT_EQ(slots[i].out, one) << "channel " << slots[i].channel << " block " << slots[i].block;
    }
    EXPECT_EQ(failed, 1u);
    EXPECT_EQ(decodes[slots.size()].status.error().message, "no such block");
    EXPECT_EQ(decodes[slots.size() + 1].status.error().message, "output smaller than the block");
}

// Skipping damaged blocks: block 3 reads as missing, with one warning, and the batch's other blocks as data.
TEST_F(DamagedBatch, SkippedDamageReadsAsMissing)
{
    std::vector<Slot> slots = everyBlock(*recording);
    std::vector<core::BlockDecode> decodes = decodesOf(slots);
    recording->decodeBlocks(decodes, crcChecked(true));
    for (std::size_t i = 0; i < slots.size(); ++i) {
        ASSERT_TRUE(decodes[i].status.ok()) << decodes[i].status.error().describe();
        if (slots[i].channel == 0 && slots[i].block == 3)
            EXPECT_EQ(slots[i].out, std::vector<std::int32_t>(slots[i].out.size(), core::kNoSample));
        else
            EXPECT_NE(slots[i].out, std::vector<std::int32_t>(slots[i].out.size(), core::kNoSample));
    }
    const std::vector<std::string> warnings = recording->takeWarnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("RED block 3: CRC mismatch"), std::string::npos) << warnings[0];
}

} // namespace
} // namespace lv::formats::mef3
