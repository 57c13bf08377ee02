// The instruction sets kernels with run-time dispatch choose from, and the best one this CPU runs.
#pragma once

#include <optional>
#include <string_view>

namespace lv::core {

// In increasing order: a level runs on every CPU that runs the ones after it.
enum class SimdLevel { Scalar, Sse2, Avx2, Avx512 };

// The best level this CPU and operating system run (Scalar off x86-64), lowered by LONGVIEW_SIMD
// ("scalar", "sse2", "avx2", "avx512") when it is set: tests and comparisons force the paths with it.
SimdLevel bestSimdLevel();
// Whether this CPU runs `level`.
bool cpuRuns(SimdLevel level);
std::string_view simdLevelName(SimdLevel level);
std::optional<SimdLevel> simdLevelFromName(std::string_view name);

} // namespace lv::core
