// The pool runs every index once, from any number of threads, and passes exceptions back to the caller.
#include "decode/ThreadPool.h"

#include <atomic>
#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

namespace lv::decode {
namespace {

TEST(ThreadPool, RunsEveryIndexExactlyOnce)
{
    for (std::size_t threads : {1u, 2u, 8u}) {
        ThreadPool pool(threads);
        EXPECT_EQ(pool.threadCount(), threads);
        std::vector<std::atomic<int>> hits(10000);
        pool.parallelFor(hits.size(), [&](std::size_t i) { hits[i].fetch_add(1); });
        for (const auto& h : hits) ASSERT_EQ(h.load(), 1);
    }
}

TEST(ThreadPool, ManyBatchesFromSeveralCallers)
{
    ThreadPool pool(4);
    std::atomic<long> sum{0};
    std::vector<std::thread> callers;
    for (int c = 0; c < 4; ++c)
        callers.emplace_back([&] {
            for (int b = 0; b < 50; ++b) pool.parallelFor(100, [&](std::size_t i) { sum += static_cast<long>(i); });
        });
    for (auto& t : callers) t.join();
    EXPECT_EQ(sum.load(), 4L * 50 * 4950);
}

TEST(ThreadPool, RethrowsTheFirstException)
{
    ThreadPool pool(2);
    EXPECT_THROW(pool.parallelFor(100,
                                  [](std::size_t i) {
                                      if (i == 57) throw std::runtime_error("boom");
                                  }),
                 std::runtime_error);
    std::atomic<int> after{0};
    pool.parallelFor(10, [&](std::size_t) { ++after; });
    EXPECT_EQ(after.load(), 10);
}

} // namespace
} // namespace lv::decode
