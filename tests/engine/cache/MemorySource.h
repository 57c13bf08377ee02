// Test support for the viewing layer: a block source held in memory (every channel the same grid), filled
// with gaps and NaN samples, and brute-force envelopes to compare with.
#pragma once

#include "cache/Envelope.h"
#include "core/BlockSource.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <gtest/gtest.h>
#include <random>
#include <span>
#include <thread>
#include <vector>

namespace lv::cache::testing {

// A channel held in memory as a grid of counts (kNoSample where missing), cut into blocks.
class MemorySource final : public core::BlockSource {
public:
    std::vector<std::int32_t> grid;
    std::vector<core::BlockSpan> spans;
    mutable std::atomic<int> decodes{0};
    std::function<void(std::size_t channel, std::size_t block)> onDecode; // e.g. a gate, a delay or a log
    std::size_t failingBlock = SIZE_MAX;

    std::span<const core::BlockSpan> blocks(std::size_t) const override { return spans; }
    core::Status decodeBlock(std::size_t channel, std::size_t block, std::span<std::int32_t> out,
                             const core::ReadControl&) const override
    {
        if (onDecode) onDecode(channel, block);
        ++decodes;
        if (block == failingBlock)
            return core::makeError(core::ErrorCode::Corrupt, "block " + std::to_string(block) + " is damaged",
                                   "memory");
        const core::BlockSpan& s = spans[block];
        std::copy_n(grid.begin() + s.first, s.count, out.begin());
        return {};
    }
};

// Blocks of 100 samples with gaps between some, NaN samples inside two, stored extrema on all but a few.
inline void fill(MemorySource& m)
{
    m.grid.assign(20'000, core::kNoSample);
    std::mt19937 rng(5);
    std::int64_t at = 0;
    for (int b = 0; at + 100 <= 20'000; ++b) {
        core::BlockSpan s{at, 100, INT32_MAX, INT32_MIN, b % 7 != 3};
        for (std::int64_t i = at; i < at + 100; ++i) {
            const bool nan = (b == 11 || b == 40) && i % 17 == 0;
            m.grid[static_cast<std::size_t>(i)] =
                nan ? core::kNoSample : static_cast<std::int32_t>(rng() % 2001) - 1000;
        }
        if (b == 11 || b == 40) s.hasExtrema = false; // NaN inside: found by decoding
        for (std::int64_t i = at; i < at + 100; ++i) {
            const std::int32_t v = m.grid[static_cast<std::size_t>(i)];
            if (v == core::kNoSample) continue;
            s.minimum = std::min(s.minimum, v);
            s.maximum = std::max(s.maximum, v);
        }
        m.spans.push_back(s);
        at += 100 + (b % 9 == 4 ? 37 : 0); // a gap after some blocks
    }
}

// Per column, from every sample: a missing sample inside a block (`blocks`) is NaN, outside any block a gap.
inline std::vector<EnvelopeColumn> bruteForce(const std::vector<std::int32_t>& grid,
                                              std::span<const core::BlockSpan> blocks, std::int64_t first,
                                              std::int64_t end, std::size_t columns)
{
    std::vector<bool> inBlock(static_cast<std::size_t>(std::max<std::int64_t>(end, 0)), false);
    for (const core::BlockSpan& s : blocks)
        for (std::int64_t i = s.first; i < s.first + s.count && i < end; ++i)
            inBlock[static_cast<std::size_t>(i)] = true;
    std::vector<EnvelopeColumn> out(columns);
    const std::int64_t n = end - first;
    for (std::size_t c = 0; c < columns; ++c) {
        const std::int64_t a = first + static_cast<std::int64_t>(c) * n / static_cast<std::int64_t>(columns);
        const std::int64_t b = first + static_cast<std::int64_t>(c + 1) * n / static_cast<std::int64_t>(columns);
        for (std::int64_t i = a; i < b; ++i) {
            const std::int32_t v =
                i < static_cast<std::int64_t>(grid.size()) ? grid[static_cast<std::size_t>(i)] : core::kNoSample;
            if (v == core::kNoSample) {
                (inBlock[static_cast<std::size_t>(i)] ? out[c].hasNaN : out[c].hasGap) = true;
                continue;
            }
            out[c].minimum = out[c].hasData ? std::min(out[c].minimum, v) : v;
            out[c].maximum = out[c].hasData ? std::max(out[c].maximum, v) : v;
            out[c].hasData = true;
        }
    }
    return out;
}

// Equal values and flags; a column whose NaN samples went unchecked must say so rather than deny them.
inline void expectSame(const std::vector<EnvelopeColumn>& got, const std::vector<EnvelopeColumn>& want)
{
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t c = 0; c < got.size(); ++c) {
        ASSERT_EQ(got[c].hasData, want[c].hasData) << c;
        ASSERT_EQ(got[c].hasGap, want[c].hasGap) << c;
        ASSERT_TRUE(!got[c].hasNaN || want[c].hasNaN) << c; // never a NaN band where there is none
        ASSERT_TRUE(got[c].nanUnchecked || got[c].hasNaN == want[c].hasNaN) << c;
        if (want[c].hasData) {
            ASSERT_EQ(got[c].minimum, want[c].minimum) << c;
            ASSERT_EQ(got[c].maximum, want[c].maximum) << c;
        }
    }
}

// Every column checked for NaN (no block summarised by its stored extrema alone).
inline void expectAllChecked(const std::vector<EnvelopeColumn>& got)
{
    for (std::size_t c = 0; c < got.size(); ++c) ASSERT_FALSE(got[c].nanUnchecked) << c;
}

} // namespace lv::cache::testing
