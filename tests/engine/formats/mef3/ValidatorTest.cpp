// validate: reference sessions are clean; a flipped byte in each file type is found and names its file.
#include "support/TestSupport.h"

#include "formats/mef3/Validator.h"

#include <gtest/gtest.h>

namespace lv::formats::mef3 {
namespace {

namespace fs = std::filesystem;

TEST(Validator, ReferenceSessionsAreClean)
{
    for (const test::ManifestCase& c : test::allMefCases()) {
        auto problems = validateSession((c.folder / (c.name + ".mefd")).string(), c.password);
        ASSERT_TRUE(problems.ok()) << c.name;
        EXPECT_TRUE(problems->empty()) << c.name << ": " << problems->front().path << ": " << problems->front().what;
    }
}

TEST(Validator, FindsAFlippedByteInEveryFileType)
{
    const fs::path source = test::testdata() / "mef3/legacy/with_annotations.mefd";
    const std::string seg = "ch1.timd/ch1-000000.segd/ch1-000000.";
    // file, byte to flip: metadata body, an index entry, inside the RED block, a record body, the ridx header
    for (auto [file, at] :
         {std::pair{seg + "tmet", 9000}, std::pair{seg + "tidx", 1024 + 24}, std::pair{seg + "tdat", 2000},
          std::pair{std::string("ch1.timd/ch1.rdat"), 1024 + 30}, std::pair{std::string("ch1.timd/ch1.ridx"), 100}}) {
        SCOPED_TRACE(file);
        test::TempDir dir;
        const fs::path session = dir.path() / "s.mefd";
        test::copyTree(source, session);
        auto bytes = test::readBytes(session / file);
        bytes[static_cast<std::size_t>(at)] ^= 0x20;
        test::writeBytes(session / file, bytes);
        auto problems = validateSession(session.string(), "");
        ASSERT_TRUE(problems.ok());
        ASSERT_FALSE(problems->empty());
        EXPECT_EQ(problems->front().path, (session / file).string()) << problems->front().what;
    }
}

} // namespace
} // namespace lv::formats::mef3
