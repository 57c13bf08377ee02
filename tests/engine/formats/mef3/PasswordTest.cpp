// Encrypted sessions: level-1 and level-2 passwords, a wrong one and none; password primitives.
#include "support/TestSupport.h"

#include "core/Recording.h"
#include "formats/mef3/MefRecording.h"
#include "formats/mef3/Password.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

std::vector<test::ManifestCase> encryptedCases()
{
    std::vector<test::ManifestCase> out;
    for (test::ManifestCase& c : test::allMefCases())
        if (!c.password1.empty()) out.push_back(std::move(c));
    return out;
}

class Encrypted : public ::testing::TestWithParam<test::ManifestCase> {
protected:
    std::string path() const { return (GetParam().folder / (GetParam().name + ".mefd")).string(); }
    std::string tmet() const
    {
        const auto& c = GetParam();
        const std::string ch = c.channels.begin()->first;
        return path() + "/" + ch + ".timd/" + ch + "-000000.segd/" + ch + "-000000.tmet";
    }
};

TEST_P(Encrypted, NoPasswordSaysWhichLevelIsNeeded)
{
    auto r = openMef3(path(), {});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::PasswordRequired);
    EXPECT_EQ(r.error().path, tmet());
    EXPECT_EQ(r.error().message, "session is encrypted: its channel metadata needs the level-1 password");
}

TEST_P(Encrypted, WrongPasswordIsAnErrorNotGarbage)
{
    auto r = openMef3(path(), OpenOptions{"not-it"});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, core::ErrorCode::WrongPassword);
    EXPECT_EQ(r.error().path, tmet());
    EXPECT_EQ(r.error().message, "wrong password: it is neither the level-1 nor the level-2 password of this session");
}

TEST_P(Encrypted, LevelTwoGivesTrueTimes)
{
    auto r = openMef3(path(), OpenOptions{GetParam().password2});
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ((*r)->accessLevel(), 2);
    EXPECT_TRUE((*r)->info().timesKnown);
    EXPECT_EQ((*r)->info().start, GetParam().channels.begin()->second.start);
}

// Level 1 reads the same samples but cannot know the recording time offset: times are relative and flagged.
TEST_P(Encrypted, LevelOneReadsDataButNotTheTimeOffset)
{
    auto level1 = openMef3(path(), OpenOptions{GetParam().password1});
    auto level2 = openMef3(path(), OpenOptions{GetParam().password2});
    ASSERT_TRUE(level1.ok()) << level1.error().describe();
    ASSERT_TRUE(level2.ok());
    EXPECT_EQ((*level1)->accessLevel(), 1);
    const core::RecordingInfo& info = (*level1)->info();
    EXPECT_FALSE(info.timesKnown);
    EXPECT_EQ(info.start, 0);
    EXPECT_EQ(info.end, (*level2)->info().end - (*level2)->info().start);
    ASSERT_FALSE(info.warnings.empty());
    EXPECT_EQ(info.warnings.back(), "the recording time offset is protected by the level-2 password: times are "
                                    "relative to the recording start, not true dates");
    const std::size_t channels[] = {0};
    auto a = core::readRange(**level1, channels, {info.start, info.end}, {});
    const core::RecordingInfo& info2 = (*level2)->info();
    auto b = core::readRange(**level2, channels, {info2.start, info2.end}, {});
    ASSERT_TRUE(a.ok()) << a.error().describe();
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(a->front().raw, b->front().raw);
}

INSTANTIATE_TEST_SUITE_P(Reference, Encrypted, ::testing::ValuesIn(encryptedCases()),
                         [](const auto& info) { return info.param.name; });

TEST(Password, BytesAreLowBytesOfCodePoints)
{
    const PasswordBytes b = passwordBytes("a\xC3\xA9z"); // a, e-acute (U+00E9), z
    EXPECT_EQ(b[0], 'a');
    EXPECT_EQ(b[1], 0xE9);
    EXPECT_EQ(b[2], 'z');
    EXPECT_EQ(b[3], 0);
}

TEST(Password, ValidationFieldsRoundTrip)
{
    const ValidationFields fields = makeValidationFields("alpha", "omega");
    EXPECT_EQ(validatePassword("alpha", fields).level, 1);
    const Access two = validatePassword("omega", fields);
    EXPECT_EQ(two.level, 2);
    ASSERT_TRUE(two.level1Key.has_value());
    EXPECT_EQ(*two.level1Key, passwordBytes("alpha"));
    EXPECT_EQ(validatePassword("gamma", fields).level, 0);
}

TEST(Password, AesRoundTripAndKnownVector)
{
    // FIPS-197 appendix C.1 AES-128 vector.
    PasswordBytes key{};
    std::vector<std::uint8_t> block(16);
    for (int i = 0; i < 16; ++i) key[i] = static_cast<std::uint8_t>(i), block[i] = static_cast<std::uint8_t>(i * 0x11);
    aesEncrypt(key, block);
    const std::vector<std::uint8_t> expected{0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                             0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
    EXPECT_EQ(block, expected);
    aesDecrypt(key, block);
    EXPECT_EQ(block[1], 0x11);
}

} // namespace
} // namespace lv::formats::mef3
