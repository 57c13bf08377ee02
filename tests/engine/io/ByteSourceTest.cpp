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
} // namespace lv::io
