// Broken MDF 4 files (copies of a reference file with one thing broken): each a clear error naming the place,
// never a crash, a hang or a wrong tree.
#include "Mdf4Oracle.h"

#include "formats/mdf4/Mdf4Structure.h"

#include "core/LittleEndian.h"
#include "io/ByteSource.h"
#include "support/TestSupport.h"

#include <gtest/gtest.h>

using namespace lv::formats::mdf4;

namespace {

const std::string kPath = "two_rates.mf4";

std::vector<std::uint8_t> reference() { return lv::test::mdf4::referenceBytes("asammdf_two_rates_dz.mf4"); }
std::string errorOf(std::vector<std::uint8_t> bytes) { return lv::test::mdf4::structureError(std::move(bytes), kPath); }
Structure treeOf(const std::vector<std::uint8_t>& bytes) { return lv::test::mdf4::structureOf(bytes, kPath); }

void putU64(std::vector<std::uint8_t>& b, std::uint64_t at, std::uint64_t v) { lv::core::le::store(&b[at], v); }

} // namespace

TEST(Mdf4BadInput, NotAnMdfFile)
{
    std::vector<std::uint8_t> bytes(200, 'x');
    EXPECT_EQ(errorOf(bytes), kPath + ": not an MDF file: it does not start with \"MDF     \" (at byte 0)");
    EXPECT_EQ(errorOf({'M', 'D', 'F'}), kPath + ": not an MDF 4 file: shorter than its 64-byte identification");
}

TEST(Mdf4BadInput, AnMdf3FileIsNotTakenForMdf4)
{
    auto bytes = reference();
    lv::core::le::store<std::uint16_t>(&bytes[28], 330);
    EXPECT_EQ(errorOf(bytes), kPath + ": MDF version 3.30 is not MDF 4 (only 4.00 to 4.2x are read) (at byte 28)");
}

TEST(Mdf4BadInput, ATruncatedFileNamesTheBlockThatRunsPastItsEnd)
{
    auto bytes = reference();
    bytes.resize(100);
    EXPECT_EQ(errorOf(bytes), kPath + ": MDF4: ##HD block length 104 runs past the end of the file (at byte 64)");
}

TEST(Mdf4BadInput, ALinkOffTheGridOrOutsideTheFile)
{
    auto bytes = reference();
    putU64(bytes, 64 + 24, 65); // hd_dg_first
    EXPECT_EQ(errorOf(bytes), kPath + ": MDF4: a link points outside the file or off the 8-byte grid (to byte 65 of " +
                                  std::to_string(bytes.size()) + ") (at byte 65)");
    putU64(bytes, 64 + 24, std::uint64_t{1} << 40);
    EXPECT_NE(errorOf(bytes).find("a link points outside the file"), std::string::npos);
}

TEST(Mdf4BadInput, ALinkLoopIsRefusedNotFollowed)
{
    auto bytes = reference();
    const Structure s = treeOf(bytes);
    ASSERT_EQ(s.dataGroups.size(), 2u);
    const std::uint64_t second = s.dataGroups[1].offset;
    putU64(bytes, second + 24, s.dataGroups[0].offset); // the second DG's next: back to the first
    EXPECT_EQ(errorOf(bytes), kPath + ": MDF4: the list of data groups loops back or links a block twice (at byte " +
                                  std::to_string(s.dataGroups[0].offset) + ")");
}

TEST(Mdf4BadInput, ABlockOfTheWrongKind)
{
    auto bytes = reference();
    const Structure s = treeOf(bytes);
    putU64(bytes, 64 + 24, s.dataGroups[0].groups[0].offset); // hd_dg_first pointing to a CG
    EXPECT_EQ(errorOf(bytes), kPath + ": MDF4: expected a block ##DG, found \"##CG\" (at byte " +
                                  std::to_string(s.dataGroups[0].groups[0].offset) + ")");
}

TEST(Mdf4BadInput, AnUndefinedDataTypeOrAbsurdLinkCount)
{
    auto bytes = reference();
    const Structure s = treeOf(bytes);
    const std::uint64_t cn = s.dataGroups[0].groups[0].channels[1].offset;
    const std::uint64_t links = lv::core::le::u64(bytes, cn + 16);
    bytes[cn + 24 + links * 8 + 2] = 99;
    EXPECT_EQ(errorOf(bytes), kPath + ": MDF4: data type 99 is not defined (at byte " + std::to_string(cn) + ")");
    bytes = reference();
    putU64(bytes, cn + 16, std::uint64_t{1} << 60);
    EXPECT_NE(errorOf(bytes).find("cannot hold 1152921504606846976 links"), std::string::npos);
}

TEST(Mdf4BadInput, ATextBlockWithoutTextIsAnEmptyName)
{
    auto bytes = reference();
    const Structure s = treeOf(bytes);
    const std::uint64_t cn = s.dataGroups[0].groups[0].channels[1].offset;
    const std::uint64_t tx = lv::core::le::u64(bytes, cn + 24 + 2 * 8); // cn_tx_name
    putU64(bytes, tx + 8, 24);                                          // a header and nothing else
    const Structure t = treeOf(bytes);
    ASSERT_EQ(t.dataGroups.size(), 2u);
    EXPECT_EQ(t.dataGroups[0].groups[0].channels[1].name, "");
    EXPECT_EQ(t.dataGroups[0].groups[0].channels[0].name, s.dataGroups[0].groups[0].channels[0].name);
}
