// Sample conversion kernels with xsimd (the filters' is filter/CascadeLanes): stored integers to counts, counts to
// physical values. Results are bit-identical to the plain scalar expressions they replace.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lv::core {

// Little-endian int16 samples (EDF) to int32 counts: count values in, count values out.
void widenInt16Le(const std::uint8_t* in, std::size_t count, std::int32_t* out);
// Little-endian int24 samples (BDF) to sign-extended int32 counts.
void widenInt24Le(const std::uint8_t* in, std::size_t count, std::int32_t* out);
// Whether every one of `count` values lies in [low, high] (the EDF digital range check on every read).
bool allWithin(const std::int32_t* in, std::size_t count, std::int32_t low, std::int32_t high);
// Physical values: out[i] = double(in[i]) * factor + offset, NaN where in[i] is kNoSample.
void countsToPhysical(const std::int32_t* in, std::size_t count, double factor, double offset, double* out);

} // namespace lv::core
