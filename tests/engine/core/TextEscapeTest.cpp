// Terminal-safe text: every control character visible as an escape, other text unchanged.
#include "core/TextEscape.h"

#include <gtest/gtest.h>

namespace lv::core {
namespace {

TEST(TextEscape, PrintableAndUtf8TextIsUnchanged)
{
    EXPECT_EQ(escapeControls("Seizure onset, Fp1 \\ back"), "Seizure onset, Fp1 \\ back");
    EXPECT_EQ(escapeControls("\xc2\xb5V \xe2\x82\xac \xf0\x9f\x98\x80"), "\xc2\xb5V \xe2\x82\xac \xf0\x9f\x98\x80");
    EXPECT_EQ(escapeControls(""), "");
}

TEST(TextEscape, C0AndDelAreEscaped)
{
    EXPECT_EQ(escapeControls("\x1b[31mred\x1b[0m"), "\\e[31mred\\e[0m");
    EXPECT_EQ(escapeControls("a\nb\rc\td"), "a\\nb\\rc\\td");
    EXPECT_EQ(escapeControls(std::string("\0\x01\x07\x08\x7f", 5)), "\\x00\\x01\\x07\\x08\\x7f");
}

TEST(TextEscape, C1ControlsAndBytesThatAreNotUtf8AreEscaped)
{
    EXPECT_EQ(escapeControls("\xc2\x9b"
                             "31m"),
              "\\u009b31m"); // CSI as UTF-8
    EXPECT_EQ(escapeControls("\xc2\x80\xc2\x9f\xc2\xa0"), "\\u0080\\u009f\xc2\xa0");
    EXPECT_EQ(escapeControls("\x9b"
                             "31m"),
              "\\x9b31m");                                        // CSI as one 8-bit byte
    EXPECT_EQ(escapeControls("caf\xe9"), "caf\\xe9");             // Latin-1
    EXPECT_EQ(escapeControls("\xe2\x82"), "\\xe2\\x82");          // cut short
    EXPECT_EQ(escapeControls("\xc0\xaf"), "\\xc0\\xaf");          // overlong
    EXPECT_EQ(escapeControls("\xed\xa0\x80"), "\\xed\\xa0\\x80"); // surrogate
}

} // namespace
} // namespace lv::core
