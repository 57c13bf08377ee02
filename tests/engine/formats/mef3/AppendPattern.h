// The samples the append child writes and the crash test expects: a pure function of channel and index.
#pragma once

#include <cstdint>

namespace lv::test {

inline constexpr std::int64_t kAppendStart = 1'700'000'000'000'000; // uUTC of sample 0
inline constexpr double kAppendFs = 256.0;
inline constexpr std::int64_t kSamplesPerAppend = 2560; // ten seconds, ten blocks

inline std::int32_t appendSample(std::size_t channel, std::int64_t index)
{
    const auto mix = static_cast<std::uint64_t>(index) * 2654435761u + channel * 40503u;
    return static_cast<std::int32_t>(index % 500) * 3 + static_cast<std::int32_t>((mix >> 20) % 50) - 800;
}

} // namespace lv::test
