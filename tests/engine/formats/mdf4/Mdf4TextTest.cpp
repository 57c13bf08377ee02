// Stored strings decoded as mdf-check decodes them (Python's codecs with "replace", cut at the first NUL): the
// expected texts are Python's own results for these bytes.
#include "formats/mdf4/Mdf4Text.h"

#include <gtest/gtest.h>

using namespace lv::formats::mdf4;

namespace {

std::string decoded(DataType type, const std::string& bytes)
{
    return decodeString(type, reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

const std::string kFffd = "\xEF\xBF\xBD"; // U+FFFD in UTF-8

} // namespace

TEST(Mdf4Text, Latin1AndUtf8)
{
    EXPECT_EQ(decoded(DataType::StringLatin1, std::string("caf\xE9\0xyz", 8)), "caf\xC3\xA9");
    EXPECT_EQ(decoded(DataType::StringUtf8, "a\xE2\x82"
                                            "b"),
              "a" + kFffd + "b");
    EXPECT_EQ(decoded(DataType::StringUtf8, "\xFF\xFE"), kFffd + kFffd);
    EXPECT_EQ(decoded(DataType::StringUtf8, "\xF0\x9F\x98\x80!"), "\xF0\x9F\x98\x80!");
    EXPECT_EQ(decoded(DataType::StringUtf8, "\xED\xA0\x80"), kFffd + kFffd + kFffd); // an encoded surrogate
    EXPECT_EQ(decoded(DataType::StringUtf8, "\xE2\x82"), kFffd);                     // cut short: one U+FFFD
    EXPECT_EQ(decoded(DataType::StringUtf8, std::string("ok\0\xFF", 4)), "ok");
}

TEST(Mdf4Text, Utf16)
{
    EXPECT_EQ(decoded(DataType::StringUtf16Le, std::string("h\0i\0\0\0x\0", 8)), "hi");
    EXPECT_EQ(decoded(DataType::StringUtf16Be, std::string("\0h\xD8\x3D\xDE\x00", 6)), "h\xF0\x9F\x98\x80");
    EXPECT_EQ(decoded(DataType::StringUtf16Le, std::string("\0\xD8"
                                                           "a\0",
                                                           4)),
              kFffd + "a");                                                                // a lone high surrogate
    EXPECT_EQ(decoded(DataType::StringUtf16Le, std::string("\0\xDCx\0", 4)), kFffd + "x"); // a lone low one
    EXPECT_EQ(decoded(DataType::StringUtf16Le, std::string("h\0i", 3)), "h" + kFffd);      // an odd last byte
    EXPECT_EQ(decoded(DataType::StringUtf16Le, std::string("h\0\x3D\xD8", 4)), "h" + kFffd);
    EXPECT_EQ(decoded(DataType::StringUtf16Le, std::string("h\0\x3D\xD8i", 5)), "h" + kFffd);
}
