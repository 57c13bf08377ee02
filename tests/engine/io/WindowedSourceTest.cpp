// Small reads from cached windows: the same bytes as the source at any offset (across window edges, at the end),
// far fewer reads of the source, windows reused in any order of reads, and the source's own errors.
#include "io/WindowedSource.h"

#include <gtest/gtest.h>
#include <random>

using namespace lv;

namespace {

// A memory source that counts its reads.
class Counting final : public io::ByteSource {
public:
    explicit Counting(std::vector<std::uint8_t> bytes) : m_bytes(std::move(bytes)) {}
    const std::string& path() const override { return m_path; }
    std::uint64_t size() const override { return m_bytes.size(); }
    core::Status readAt(std::uint64_t offset, std::span<std::uint8_t> out) const override
    {
        if (++reads == failingRead) return core::makeError(core::ErrorCode::Io, "the disk failed", m_path);
        if (offset > m_bytes.size() || out.size() > m_bytes.size() - offset)
            return core::makeError(
                core::ErrorCode::Truncated,
                "the file ends before " + std::to_string(out.size()) + " bytes at " + std::to_string(offset), m_path);
        std::copy_n(m_bytes.begin() + static_cast<std::ptrdiff_t>(offset), out.size(), out.begin());
        return {};
    }
    mutable int reads = 0;
    int failingRead = 0; // this read (1, 2, ...) fails; 0: none

private:
    std::vector<std::uint8_t> m_bytes;
    std::string m_path = "x.mf4";
};

} // namespace

TEST(WindowedSource, ReadsTheSameBytesWithFewReads)
{
    std::vector<std::uint8_t> bytes(1'000'003);
    std::mt19937 random(7);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(random());
    auto inner = std::make_shared<Counting>(bytes);
    const io::ByteSourcePtr windowed = io::windowedSource(inner, 65536, 4);
    EXPECT_EQ(windowed->size(), bytes.size());
    EXPECT_EQ(windowed->path(), "x.mf4");
    int reads = 0;
    for (std::uint64_t at = 0; at + 100 <= bytes.size(); at += 97) { // a walk of small blocks, across window edges
        std::vector<std::uint8_t> out(100);
        ASSERT_TRUE(windowed->readAt(at, out).ok());
        ASSERT_TRUE(std::equal(out.begin(), out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at))) << at;
        ++reads;
    }
    EXPECT_LE(inner->reads, 16); // one per window: 1 MB / 64 KiB
    std::vector<std::uint8_t> tail(3);
    ASSERT_TRUE(windowed->readAt(bytes.size() - 3, tail).ok()); // the last, short window
    EXPECT_TRUE(std::equal(tail.begin(), tail.end(), bytes.end() - 3));
    std::vector<std::uint8_t> big(20000); // over a quarter window: straight to the source
    const int before = inner->reads;
    ASSERT_TRUE(windowed->readAt(12345, big).ok());
    EXPECT_EQ(inner->reads, before + 1);
    EXPECT_TRUE(std::equal(big.begin(), big.end(), bytes.begin() + 12345));
    EXPECT_GT(reads, 10000);
}

TEST(WindowedSource, AReadPastTheEndIsTheSourcesOwnError)
{
    auto inner = std::make_shared<Counting>(std::vector<std::uint8_t>(1000, 1));
    const io::ByteSourcePtr windowed = io::windowedSource(inner, 65536, 4);
    std::vector<std::uint8_t> out(10);
    const core::Status s = windowed->readAt(995, out);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().describe(), "x.mf4: the file ends before 10 bytes at 995");
}

TEST(WindowedSource, ReusedWindowsHoldTheirOwnBytesInAnyOrderAndAfterAFailedRead)
{
    std::vector<std::uint8_t> bytes(20 * 4096 + 100); // 21 windows, the last one short
    std::mt19937 random(11);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(random());
    auto inner = std::make_shared<Counting>(bytes);
    const io::ByteSourcePtr windowed = io::windowedSource(inner, 4096, 3);
    const auto same = [&](std::uint64_t at) {
        std::vector<std::uint8_t> out(16);
        const core::Status s = windowed->readAt(at, out);
        return s.ok() && std::equal(out.begin(), out.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at));
    };
    for (int i = 0; i < 3000; ++i) {
        const std::uint64_t at = random() % (bytes.size() - 16);
        ASSERT_TRUE(same(at)) << at;
    }
    EXPECT_GT(inner->reads, 1000); // 3 of 21 windows held: most reads evict one
    for (const std::uint64_t window : {5, 6, 7}) ASSERT_TRUE(same(window * 4096)); // held: 7, 6, 5
    inner->failingRead = inner->reads + 1; // the next window read fails, in the buffer window 5 held
    std::vector<std::uint8_t> out(16);
    const core::Status failed = windowed->readAt(9 * 4096 + 7, out);
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().describe(), "x.mf4: the disk failed");
    EXPECT_TRUE(same(9 * 4096 + 7)); // read again, not the bytes of the window it was to replace
    EXPECT_TRUE(same(5 * 4096 + 1));
    EXPECT_TRUE(same(bytes.size() - 16)); // the short last window, in a reused buffer
    EXPECT_TRUE(same(3 * 4096 + 4090));   // across two windows
}
