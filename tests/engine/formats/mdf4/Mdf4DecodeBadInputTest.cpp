// Broken conversions, signal data and events (copies of reference files with one thing broken): Corrupt errors
// naming the block; and a channel array (CA) added to a copy, listed.
#include "Mdf4Oracle.h"

#include "formats/mdf4/Mdf4Data.h"
#include "formats/mdf4/Mdf4Events.h"
#include "formats/mdf4/Mdf4Recording.h"
#include "formats/mdf4/Mdf4Text.h"
#include "formats/mdf4/Mdf4Writer.h"

#include "core/LittleEndian.h"
#include "io/ByteSource.h"
#include "support/TestSupport.h"

#include <algorithm>
#include <gtest/gtest.h>

using namespace lv::formats::mdf4;
namespace le = lv::core::le;

namespace {

const std::string kPath = "copy.mf4";

std::vector<std::uint8_t> reference(const std::string& name) { return lv::test::mdf4::referenceBytes(name); }
std::string errorOf(std::vector<std::uint8_t> bytes) { return lv::test::mdf4::structureError(std::move(bytes), kPath); }
Structure treeOf(const std::vector<std::uint8_t>& bytes) { return lv::test::mdf4::structureOf(bytes, kPath); }

const Channel* channelNamed(const Structure& s, const std::string& name)
{
    for (const DataGroup& dg : s.dataGroups)
        for (const ChannelGroup& g : dg.groups)
            for (const Channel& c : g.channels)
                if (c.name == name) return &c;
    return nullptr;
}

// Where the data section of the block at `at` starts.
std::uint64_t dataOf(const std::vector<std::uint8_t>& b, std::uint64_t at) { return at + 24 + 8 * le::u64(b, at + 16); }

std::string at(std::uint64_t offset) { return " (at byte " + std::to_string(offset) + ")"; }

} // namespace

TEST(Mdf4DecodeBadInput, AConversionWithAbsurdCountsNamesItsBlock)
{
    auto bytes = reference("asammdf_two_rates_dz.mf4");
    const std::uint64_t cc = channelNamed(treeOf(bytes), "state")->conversion->offset;
    ASSERT_NE(cc, 0u);
    le::store<std::uint16_t>(&bytes[dataOf(bytes, cc) + 6], 60000); // cc_val_count
    EXPECT_EQ(errorOf(bytes), kPath + ": MDF4: ##CC block lists 60000 values but holds room for 3" + at(cc));
    bytes = reference("asammdf_two_rates_dz.mf4");
    le::store<std::uint16_t>(&bytes[dataOf(bytes, cc) + 4], 60000); // cc_ref_count
    EXPECT_EQ(errorOf(bytes), kPath + ": MDF4: ##CC block lists 60000 references but has room for 4" + at(cc));
    bytes = reference("asammdf_two_rates_dz.mf4");
    const std::uint64_t linear = channelNamed(treeOf(bytes), "pressure")->conversion->offset;
    le::store<std::uint16_t>(&bytes[dataOf(bytes, linear) + 6], 1); // a linear conversion of one value
    EXPECT_EQ(errorOf(bytes),
              kPath + ": MDF4: linear conversion with 1 values and 0 references needs 2 values" + at(linear));
}

TEST(Mdf4DecodeBadInput, ALoopOfNestedConversionsIsRefused)
{
    auto bytes = reference("asammdf_two_rates_dz.mf4");
    const std::uint64_t cc = channelNamed(treeOf(bytes), "state")->conversion->offset;
    le::store<std::uint64_t>(&bytes[cc + 24 + 4 * 8], cc); // its first text reference: itself
    EXPECT_EQ(errorOf(bytes), kPath + ": MDF4: nested conversions loop back: the conversion at byte " +
                                  std::to_string(cc) + " refers to this one, which contains it" + at(cc));
}

TEST(Mdf4DecodeBadInput, SignalDataShorterThanAValueLength)
{
    auto bytes = reference("asammdf_vlsd_virtual.mf4");
    const Structure s = treeOf(bytes);
    const Channel* label = channelNamed(s, "label");
    ASSERT_NE(label, nullptr);
    const std::uint64_t sd = label->dataLink, sdBytes = le::u64(bytes, sd + 8) - 24;
    le::store<std::uint32_t>(&bytes[sd + 24], 100000); // the first value's length
    auto file = lv::io::memorySource(bytes, kPath);
    const DataGroup* dg = nullptr;
    const ChannelGroup* group = nullptr;
    for (const DataGroup& d : s.dataGroups)
        for (const ChannelGroup& g : d.groups)
            for (const Channel& c : g.channels)
                if (&c == label) dg = &d, group = &g;
    auto records = readDataGroupBytes(*file, *dg);
    ASSERT_TRUE(records.ok());
    auto texts = channelTexts(*file, *dg, *group, *label, *records);
    ASSERT_FALSE(texts.ok());
    EXPECT_EQ(texts.error().describe(), kPath +
                                            ": MDF4: the signal data holds a value of 100000 bytes at byte 0, "
                                            "past its end (" +
                                            std::to_string(sdBytes) + " bytes)" + at(sd));
    auto shifted = *records; // the second record's offset moved one byte into its value
    const std::uint64_t field = group->dataBytes + group->invalidBytes + dg->recordIdBytes + label->byteOffset;
    const std::uint64_t offset = le::u64(shifted, field) + 1;
    le::store<std::uint64_t>(&shifted[field], offset);
    auto moved =
        channelTexts(*lv::io::openFile(std::string(LONGVIEW_TESTDATA) + "/mdf4/asammdf_vlsd_virtual.mf4").value(), *dg,
                     *group, *label, shifted);
    ASSERT_FALSE(moved.ok());
    EXPECT_EQ(moved.error().message, "MDF4: record 1 of VLSD channel label points to byte " + std::to_string(offset) +
                                         " of its signal data, where no value starts");
    EXPECT_EQ(moved.error().offset, static_cast<std::int64_t>(label->offset));
}

TEST(Mdf4DecodeBadInput, ALoopInTheEventListIsRefused)
{
    auto bytes = reference("dSPACE_CaptureBlocks.mf4");
    const Structure s = treeOf(bytes);
    auto events = readEvents(*lv::io::memorySource(bytes, kPath), s);
    ASSERT_TRUE(events.ok());
    le::store<std::uint64_t>(&bytes[events->back().offset + 24], events->front().offset); // last -> first
    auto looped = readEvents(*lv::io::memorySource(bytes, kPath), s);
    ASSERT_FALSE(looped.ok());
    EXPECT_EQ(looped.error().describe(),
              kPath + ": MDF4: the list of events loops back or links a block twice" + at(events->front().offset));
}

TEST(Mdf4DecodeBadInput, AChannelArrayIsListedNotDecoded)
{
    auto bytes = reference("asammdf_two_rates_dz.mf4");
    const std::uint64_t cn = channelNamed(treeOf(bytes), "ecg")->offset;
    bytes.resize((bytes.size() + 7) / 8 * 8);
    const std::uint64_t ca = bytes.size();
    std::vector<std::uint8_t> block(24 + 8 + 16 + 2 * 8); // one link (ca_composition), two dimensions
    std::memcpy(block.data(), "##CA", 4);
    le::store<std::uint64_t>(&block[8], block.size());
    le::store<std::uint64_t>(&block[16], 1);
    le::store<std::uint16_t>(&block[32 + 2], 2); // ca_ndim
    le::store<std::uint64_t>(&block[32 + 16], 3);
    le::store<std::uint64_t>(&block[32 + 24], 4);
    bytes.insert(bytes.end(), block.begin(), block.end());
    le::store<std::uint64_t>(&bytes[cn + 24 + 8], ca); // cn_composition
    const Structure s = treeOf(bytes);
    const Channel* ecg = channelNamed(s, "ecg");
    ASSERT_NE(ecg, nullptr);
    EXPECT_EQ(ecg->composition, "CA");
    ASSERT_EQ(ecg->arrays.size(), 1u);
    EXPECT_EQ(ecg->arrays[0].dimensions, (std::vector<std::uint64_t>{3, 4}));
    le::store<std::uint64_t>(&bytes[ca + 24], ca); // a nested array that is itself
    EXPECT_EQ(errorOf(bytes), kPath + ": MDF4: the channel arrays of channel ecg loop back or nest too deep" + at(ca));
}

// A sample reduction whose count does not match its data is not used, said; the channels are read as without it.
TEST(Mdf4DecodeBadInput, ADamagedSampleReductionIsAWarningNotExtrema)
{
    auto bytes = reference("dSPACE_CaptureBlocks.mf4");
    const Structure s = treeOf(bytes);
    const ChannelGroup* reduced = nullptr;
    for (const DataGroup& dg : s.dataGroups)
        for (const ChannelGroup& g : dg.groups)
            if (g.reductions.size() == 1 && g.reductions[0].cycleCount == 7) reduced = &g;
    ASSERT_NE(reduced, nullptr);
    le::store<std::uint64_t>(&bytes[dataOf(bytes, reduced->reductions[0].offset)], 9); // 9 intervals, 7 held
    auto r = openMdf4(lv::io::memorySource(std::move(bytes), kPath));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const auto& warnings = (*r)->info().warnings;
    EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
        return w.find(": its sample reduction is not used: its data holds 504 bytes, not 648") != std::string::npos;
    })) << ::testing::PrintToString(warnings);
    const int c = (*r)->info().channelIndex("Model Root/SigGenOut");
    ASSERT_GE(c, 0);
    for (const lv::core::BlockSpan& b : (*r)->blocks(static_cast<std::size_t>(c))) EXPECT_FALSE(b.hasExtrema);
    std::vector<std::int32_t> counts(
        static_cast<std::size_t>((*r)->info().channels[static_cast<std::size_t>(c)].gridLength));
    const lv::core::RawSlice slice{static_cast<std::size_t>(c), 0, counts};
    EXPECT_TRUE((*r)->readRaw({&slice, 1}, {}).ok());
}

// A reduction whose first interval starts between two records (as if its master's mean were the interval's middle)
// is not taken at its word: a warning, no extrema.
TEST(Mdf4DecodeBadInput, AReductionIntervalThatStartsAtNoRecordIsNotUsed)
{
    auto bytes = reference("dSPACE_CaptureBlocks.mf4");
    const std::string text(bytes.begin(), bytes.end());
    const std::size_t rd = text.find("##RD", text.find("##RD") + 4); // the 7-interval reduction's data
    ASSERT_NE(rd, std::string::npos);
    ASSERT_EQ(le::f64(bytes, rd + 24), 0.0);    // interval 0's start: the first record, at 0 s
    le::store<double>(&bytes[rd + 24], 0.5025); // between the records at 0.500 and 0.505 s
    auto r = openMdf4(lv::io::memorySource(std::move(bytes), kPath));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const auto& warnings = (*r)->info().warnings;
    EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
        return w.find(": its sample reduction is not used: its interval 0 does not start at a record") !=
               std::string::npos;
    })) << ::testing::PrintToString(warnings);
    const int c = (*r)->info().channelIndex("Model Root/SigGenOut");
    ASSERT_GE(c, 0);
    for (const lv::core::BlockSpan& b : (*r)->blocks(static_cast<std::size_t>(c))) EXPECT_FALSE(b.hasExtrema);
}

// A DZ block whose checksum is wrong (its last byte flipped: open inflates only the masters' first columns of
// integer groups and does not see it): a read that needs it fails naming it and leaves its samples missing; the
// other group's are read.
TEST(Mdf4DecodeBadInput, ADamagedDzBlockLeavesItsSamplesMissingAndOthersRead)
{
    lv::test::TempDir dir;
    const std::string path = (dir.path() / "two.mf4").string();
    FileSpec spec;
    spec.zipBytes = 4096;
    for (const char* name : {"a", "b"})
        spec.groups.push_back({name, "", {{name, "uV", "", ValueType::Int16, true, 0.5}}});
    auto w = Mdf4Writer::create(path, spec);
    ASSERT_TRUE(w.ok());
    for (std::size_t g = 0; g < 2; ++g) {
        const RecordLayout& layout = (*w)->layout(g);
        std::vector<std::uint8_t> records(3000 * layout.recordBytes(), 0);
        for (std::size_t i = 0; i < 3000; ++i) {
            le::store<double>(&records[i * layout.recordBytes()], static_cast<double>(i) / 100);
            le::store<std::int16_t>(&records[i * layout.recordBytes() + layout.offsets[0]],
                                    static_cast<std::int16_t>(i));
        }
        ASSERT_TRUE((*w)->append(g, records).ok());
    }
    ASSERT_TRUE((*w)->commit().ok());
    auto bytes = lv::test::readBytes(path);
    const std::string text(bytes.begin(), bytes.end());
    const std::uint64_t dz = text.find("##DZ"); // group a's first block: the writer writes a's records first
    ASSERT_NE(dz, std::string::npos);
    bytes[dz + 48 + le::u64(bytes, dz + 40) - 1] ^= 0xff; // the zlib stream's last byte: its Adler-32
    auto r = openMdf4(lv::io::memorySource(std::move(bytes), kPath));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    const lv::core::RecordingInfo& info = (*r)->info();
    ASSERT_EQ(info.channels.size(), 2u);
    std::vector<std::int32_t> a(3000, 12345), b(3000, 12345);
    const lv::core::RawSlice slices[] = {{0, 0, a}, {1, 0, b}};
    const lv::core::Status read = (*r)->readRaw(slices, {});
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().describe().rfind(kPath + ": MDF4: ##DZ", 0), 0u) << read.error().describe();
    std::size_t missing = 0; // every sample either read or missing
    for (std::size_t i = 0; i < a.size(); ++i) {
        missing += a[i] == lv::core::kNoSample;
        ASSERT_TRUE(a[i] == lv::core::kNoSample || a[i] == static_cast<std::int32_t>(i)) << i << ": " << a[i];
    }
    EXPECT_GT(missing, 0u); // the block of records that needs the damaged DZ block (here all 3,000: one block)
    for (std::size_t i = 0; i < b.size(); ++i) ASSERT_EQ(b[i], static_cast<std::int32_t>(i));
}
