// Block memory: samples kept intact across many blocks of several sizes, and a freed block's pages leave the
// resident set at once (what keeps the viewer's RSS at the blocks alive).
#include "cache/BlockMemory.h"

#include <algorithm>
#include <cstring>
#include <gtest/gtest.h>
#include <numeric>
#include <random>
#include <sys/mman.h>
#include <unistd.h>

namespace lv::cache {
namespace {

// Resident pages of [p, p + bytes).
std::size_t residentPages(const void* p, std::size_t bytes)
{
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> flags((bytes + page - 1) / page);
    EXPECT_EQ(::mincore(const_cast<void*>(p), bytes, flags.data()), 0);
    return static_cast<std::size_t>(std::count_if(flags.begin(), flags.end(), [](unsigned char f) { return f & 1; }));
}

TEST(BlockMemory, BlocksKeepTheirSamplesAndFreedPagesLeaveTheResidentSet)
{
    std::mt19937 rng(3);
    std::vector<BlockSamples> blocks;
    for (int i = 0; i < 600; ++i) {
        BlockSamples b(std::size_t{1} + rng() % 5000);
        std::iota(b.begin(), b.end(), i);
        blocks.push_back(std::move(b));
    }
    for (int i = 0; i < 600; i += 2) blocks[static_cast<std::size_t>(i)] = BlockSamples(); // free every other
    for (int i = 1; i < 600; i += 2) {
        const BlockSamples& b = blocks[static_cast<std::size_t>(i)];
        for (std::size_t k = 0; k < b.size(); ++k) ASSERT_EQ(b[k], i + static_cast<std::int32_t>(k)) << i;
    }
    BlockSamples big(1u << 20, 7); // beyond a slab slot: a mapping of its own
    EXPECT_EQ(big.back(), 7);

#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "sanitized builds take blocks from operator new";
#endif
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t bytes = 6 * page + 100; // a slot size of its own here (7 pages): its slab stays mapped
    void* p = BlockMemory::allocate(bytes);
    std::memset(p, 1, bytes);
    EXPECT_EQ(residentPages(p, BlockMemory::footprint(bytes)), 7u);
    BlockMemory::deallocate(p, bytes);
    EXPECT_EQ(residentPages(p, BlockMemory::footprint(bytes)), 0u); // the slab stays mapped, its pages go
}

TEST(BlockMemory, FootprintIsWholePages)
{
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    EXPECT_EQ(BlockMemory::footprint(1), page);
    EXPECT_EQ(BlockMemory::footprint(page), page);
    EXPECT_EQ(BlockMemory::footprint(page + 1), 2 * page);
}

} // namespace
} // namespace lv::cache
