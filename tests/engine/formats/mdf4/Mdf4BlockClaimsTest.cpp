// BlockClaims: a block is claimed once, by one thread of many; offsets it cannot hold are left to the block reader.
#include "formats/mdf4/Mdf4BlockClaims.h"

#include <atomic>
#include <gtest/gtest.h>
#include <thread>
#include <vector>

using lv::formats::mdf4::BlockClaims;

TEST(Mdf4BlockClaims, ABlockIsClaimedOnce)
{
    const std::uint64_t size = std::uint64_t{20} << 20; // five pieces of 4 MiB
    BlockClaims claims(size);
    for (std::uint64_t at : {std::uint64_t{0}, std::uint64_t{8}, std::uint64_t{4} << 20, size - 8}) {
        EXPECT_TRUE(claims.claim(at)) << at;
        EXPECT_FALSE(claims.claim(at)) << at;
    }
    EXPECT_TRUE(claims.claim(16)); // its neighbours are its own
    EXPECT_TRUE(claims.claim((std::uint64_t{4} << 20) - 8));
}

TEST(Mdf4BlockClaims, OffsetsOffTheGridOrOutsideTheFileAreNeverClaimed)
{
    BlockClaims claims(4096);
    for (std::uint64_t at : {std::uint64_t{3}, std::uint64_t{4096}, std::uint64_t{1} << 62})
        for (int i = 0; i < 2; ++i) EXPECT_TRUE(claims.claim(at)) << at;
}

TEST(Mdf4BlockClaims, OfManyThreadsOneWinsEachBlock)
{
    const std::uint64_t size = std::uint64_t{64} << 20;
    BlockClaims claims(size);
    std::atomic<std::uint64_t> won{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            std::uint64_t mine = 0;
            for (std::uint64_t at = 0; at < size; at += 4096 + 8) mine += claims.claim(at);
            won += mine;
        });
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(won.load(), (size + 4096 + 8 - 1) / (4096 + 8));
}
