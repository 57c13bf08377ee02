// Lazily opened files: nothing is opened until the first read, which reads the file or reports why it cannot.
#include "io/ByteSource.h"

#include "support/TestSupport.h"

#include <gtest/gtest.h>

namespace lv::io {
namespace {

TEST(LazyFile, OpensOnFirstReadAndReportsAMissingFile)
{
    test::TempDir dir;
    const auto path = dir.path() / "data.bin";
    const ByteSourcePtr lazy = lazyFile(path.string()); // the file does not exist yet: no error so far
    test::writeBytes(path, {1, 2, 3, 4, 5});
    std::uint8_t out[3] = {};
    ASSERT_TRUE(lazy->readAt(1, out).ok());
    EXPECT_EQ(out[0], 2);
    EXPECT_EQ(out[2], 4);
    EXPECT_EQ(lazy->size(), 5u);

    const ByteSourcePtr missing = lazyFile((dir.path() / "gone.bin").string());
    const core::Status s = missing->readAt(0, out);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().path, (dir.path() / "gone.bin").string());
    EXPECT_EQ(missing->size(), 0u);
}

} // namespace
// A count past the end is an error before anything is allocated (fuzz_snapshot: a block of 4 GiB read 4 GiB).
TEST(ByteSource, AReadPastTheEndFailsBeforeAllocating)
{
    const auto source = memorySource(std::vector<std::uint8_t>(10, 1), "m.bin");
    auto r = source->read(5, std::uint64_t{1} << 40);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().describe(),
              "m.bin: file is truncated: needed 1099511627776 bytes but it has 5 from here (at byte 5)");
    EXPECT_EQ(source->read(11, 0).error().code, core::ErrorCode::Truncated);
    EXPECT_TRUE(source->read(10, 0).ok());
}

} // namespace lv::io
