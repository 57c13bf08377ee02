// CPU feature detection for run-time dispatch (GCC/Clang builtins on x86-64).
#include "core/SimdLevel.h"

#include <cstdlib>

namespace lv::core {

bool cpuRuns(SimdLevel level)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    switch (level) {
    case SimdLevel::Scalar:
    case SimdLevel::Sse2:
        return true;
    case SimdLevel::Avx2:
        return __builtin_cpu_supports("avx2");
    case SimdLevel::Avx512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
    }
    return false;
#else
    return level == SimdLevel::Scalar;
#endif
}

SimdLevel bestSimdLevel()
{
    SimdLevel best = SimdLevel::Scalar;
    for (SimdLevel level : {SimdLevel::Sse2, SimdLevel::Avx2, SimdLevel::Avx512})
        if (cpuRuns(level)) best = level;
    if (const char* forced = std::getenv("LONGVIEW_SIMD"))
        if (const auto cap = simdLevelFromName(forced); cap && *cap < best) best = *cap;
    return best;
}

std::string_view simdLevelName(SimdLevel level)
{
    switch (level) {
    case SimdLevel::Scalar:
        return "scalar";
    case SimdLevel::Sse2:
        return "sse2";
    case SimdLevel::Avx2:
        return "avx2";
    case SimdLevel::Avx512:
        return "avx512";
    }
    return "scalar";
}

std::optional<SimdLevel> simdLevelFromName(std::string_view name)
{
    for (SimdLevel level : {SimdLevel::Scalar, SimdLevel::Sse2, SimdLevel::Avx2, SimdLevel::Avx512})
        if (simdLevelName(level) == name) return level;
    return std::nullopt;
}

} // namespace lv::core
