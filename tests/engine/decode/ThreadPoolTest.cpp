// The pool runs every index once, from any number of threads, passes exceptions back, and runs posted tasks.
#include "decode/ThreadPool.h"

#include <atomic>
#include <chrono>
#include <future>
#include <gtest/gtest.h>
#include <stdexcept>
#include <thread>
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

TEST(ThreadPool, APostedTaskRunsOnAWorkerAndNobodyWaitsForIt)
{
    std::promise<std::thread::id> ran;
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    {
        ThreadPool pool(2);
        pool.post([&] {
            ran.set_value(std::this_thread::get_id());
            released.wait();
        });
        auto id = ran.get_future();
        ASSERT_EQ(id.wait_for(std::chrono::seconds(10)), std::future_status::ready);
        EXPECT_NE(id.get(), std::this_thread::get_id());
        release.set_value(); // the pool's destructor joins the worker
    }
    ThreadPool alone(1);
    std::thread::id here;
    alone.post([&] { here = std::this_thread::get_id(); });
    EXPECT_EQ(here, std::this_thread::get_id()) << "a pool without workers runs a posted task at once";
}

} // namespace
} // namespace lv::decode
