// Test support: every count of a channel, read in one slice (the test fails when the read does).
#pragma once

#include "core/Recording.h"

#include <gtest/gtest.h>

#include <vector>

namespace lv::test {

inline std::vector<std::int32_t> everyCount(core::Recording& r, std::size_t channel)
{
    std::vector<std::int32_t> out(static_cast<std::size_t>(r.info().channels[channel].gridLength));
    const core::RawSlice slice{channel, 0, out};
    const core::Status read = r.readRaw(std::span(&slice, 1), {});
    EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().describe());
    return out;
}

} // namespace lv::test
