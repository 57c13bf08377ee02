// Truncations and byte flips of headers and records: a warning or a clear error, never a crash (run under
// ASan/UBSan by the asan preset), and every file that opens reads whole.
#include "EdfTestSupport.h"

#include <gtest/gtest.h>

namespace lv::formats::edf {
namespace {

// Opens bytes written to a file; when it opens, reads every channel and every block.
void openAndReadAll(const std::filesystem::path& file, const std::vector<std::uint8_t>& bytes, std::size_t& opened)
{
    lv::test::writeBytes(file, bytes);
    auto r = openEdf(file.string());
    if (!r) {
        EXPECT_FALSE(r.error().message.empty());
        EXPECT_EQ(r.error().path, file.string());
        return;
    }
    ++opened;
    test::readAllPhysical(**r);
    std::vector<std::int32_t> out;
    for (std::size_t c = 0; c < (*r)->info().channels.size(); ++c) {
        const auto blocks = (*r)->blocks(c);
        for (std::size_t b = 0; b < blocks.size(); b += std::max<std::size_t>(1, blocks.size() / 7)) {
            out.assign(blocks[b].count, 0);
            EXPECT_TRUE((*r)->decodeBlock(c, b, out, {}).ok());
        }
    }
}

class EdfBadInput : public ::testing::TestWithParam<std::string> {};

TEST_P(EdfBadInput, TruncationsNeverCrash)
{
    const auto bytes = lv::test::readBytes(lv::test::testdata() / "edf" / GetParam());
    lv::test::TempDir dir;
    std::size_t opened = 0;
    for (std::size_t size : {std::size_t{0}, std::size_t{7}, std::size_t{255}, std::size_t{256}, std::size_t{300},
                             std::size_t{511}, bytes.size() / 3, bytes.size() / 2, bytes.size() - 1})
        if (size <= bytes.size())
            openAndReadAll(dir.path() / "t.edf",
                           std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size)),
                           opened);
    EXPECT_GE(opened, 2u); // the halves and the one-byte-short file open with warnings
}

TEST_P(EdfBadInput, HeaderByteFlipsNeverCrash)
{
    const auto bytes = lv::test::readBytes(lv::test::testdata() / "edf" / GetParam());
    const std::size_t ns = std::stoul(std::string(bytes.begin() + 252, bytes.begin() + 256));
    const std::size_t header = std::min<std::size_t>(256 * (ns + 1), 2048);
    lv::test::TempDir dir;
    std::size_t opened = 0;
    for (std::size_t at = 0; at < header; at += 1 + at / 512) {
        for (std::uint8_t value : {std::uint8_t{'9'}, std::uint8_t{'-'}, std::uint8_t{0}, std::uint8_t{0xff}}) {
            auto flipped = bytes;
            flipped[at] = value;
            openAndReadAll(dir.path() / "f.edf", flipped, opened);
        }
    }
    EXPECT_GT(opened, 0u);
}

TEST_P(EdfBadInput, RecordByteFlipsNeverCrash)
{
    const auto bytes = lv::test::readBytes(lv::test::testdata() / "edf" / GetParam());
    const std::size_t ns = std::stoul(std::string(bytes.begin() + 252, bytes.begin() + 256));
    const std::size_t header = 256 * (ns + 1);
    lv::test::TempDir dir;
    std::size_t opened = 0;
    std::uint32_t seed = 12345;
    for (int round = 0; round < 40; ++round) {
        auto flipped = bytes;
        for (int k = 0; k < 64; ++k) {
            seed = seed * 1664525u + 1013904223u;
            const std::size_t at = header + seed % (bytes.size() - header);
            flipped[at] = static_cast<std::uint8_t>(seed >> 24);
        }
        openAndReadAll(dir.path() / "r.edf", flipped, opened);
    }
    EXPECT_EQ(opened, 40u); // damaged samples and TALs never stop the open
}

INSTANTIATE_TEST_SUITE_P(Reference, EdfBadInput,
                         ::testing::Values("test_subsecond.edf", "ref_edflib.bdf", "SC4001EC-Hypnogram.edf",
                                           "test_generator_datarec_generator_2.bdf"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             std::string name = p.param;
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });

} // namespace
} // namespace lv::formats::edf
