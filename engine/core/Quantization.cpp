// Resolution inference (smallest step test, else a noise-based 1-2-5 step) and rounding with error accounting.
#include "core/Quantization.h"

#include "core/Recording.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace lv::core {

namespace {

constexpr std::size_t kLookAt = 1'000'000;

std::vector<double> finiteValues(std::span<const double> values)
{
    std::vector<double> out;
    for (std::size_t i = 0; i < values.size() && out.size() < kLookAt; ++i)
        if (std::isfinite(values[i])) out.push_back(values[i]);
    return out;
}

// The step rounded to 12 significant digits, so 0.1 found as 0.10000000000000003 is stored as 0.1.
double tidy(double step)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.12g", step);
    return std::strtod(text, nullptr);
}

// The smallest non-zero step between neighbours, when every value is a whole multiple of it; else 0.
double ownResolution(const std::vector<double>& v)
{
    double step = 0.0;
    for (std::size_t i = 1; i < v.size(); ++i) {
        const double d = std::abs(v[i] - v[i - 1]);
        if (d > 0.0 && (step == 0.0 || d < step)) step = d;
    }
    if (step == 0.0) return 0.0;
    step = tidy(step);
    for (double x : v)
        if (std::abs(x / step - std::round(x / step)) > 1e-3) return 0.0;
    return step;
}

// The largest 1-2-5 step at or below `limit`.
double niceStepBelow(double limit)
{
    const double decade = std::pow(10.0, std::floor(std::log10(limit)));
    for (double m : {5.0, 2.0, 1.0})
        if (m * decade <= limit * (1 + 1e-12)) return tidy(m * decade);
    return tidy(decade);
}

double typicalChange(const std::vector<double>& v)
{
    std::vector<double> d;
    for (std::size_t i = 1; i < v.size(); ++i) d.push_back(std::abs(v[i] - v[i - 1]));
    if (d.empty()) return 0.0;
    std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(d.size() / 2), d.end());
    return d[d.size() / 2] * 1.4826; // median absolute change as a standard deviation
}

double largestMagnitude(const std::vector<double>& values)
{
    double largest = 0;
    for (double v : values)
        if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
    return largest;
}

// The step of counts for values that are not whole multiples of one: a power of two that keeps 2^27 steps (4 bits
// of headroom in int32) up to the largest magnitude seen, so float32 values near it are kept exactly.
double floatStep(double largest)
{
    if (largest == 0) return 1.0;
    return std::ldexp(1.0, std::ilogb(largest) + 1 + 4 - 31);
}

} // namespace

QuantizationChoice chooseQuantization(std::span<const double> values, double requested)
{
    if (requested > 0.0) return {requested, false, false};
    const std::vector<double> v = finiteValues(values);
    if (const double own = ownResolution(v); own > 0.0) return {own, true, true};
    const double change = typicalChange(v);
    if (!(change > 0.0)) return {1.0, true, false};
    return {niceStepBelow(change / 32.0), true, false};
}

double QuantizationError::rms() const { return values ? std::sqrt(sumSquares / static_cast<double>(values)) : 0.0; }

Status quantize(std::span<const double> values, double factor, std::span<std::int32_t> counts, QuantizationError& error)
{
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double x = values[i];
        if (std::isnan(x)) {
            counts[i] = kNoSample;
            continue;
        }
        const double count = std::round(x / factor);
        if (!(count > static_cast<double>(INT32_MIN) && count <= static_cast<double>(INT32_MAX)))
            return makeError(ErrorCode::InvalidArgument, "value " + std::to_string(x) + " at index " +
                                                             std::to_string(i) +
                                                             " does not fit in 32-bit counts at this resolution");
        counts[i] = static_cast<std::int32_t>(count);
        const double diff = std::abs(x - count * factor);
        error.maxAbs = std::max(error.maxAbs, diff);
        error.sumSquares += diff * diff;
        ++error.values;
    }
    return {};
}

QuantizationChoice storedStepOf(const std::vector<double>& values)
{
    QuantizationChoice q = chooseQuantization(values, 0.0);
    const double largest = largestMagnitude(values);
    if (q.exact && largest / q.factor < 0x1p27) return q;
    q.factor = floatStep(largest);
    q.exact = true;
    for (double v : values)
        if (std::isfinite(v) && std::round(v / q.factor) * q.factor != v) q.exact = false;
    return q;
}

} // namespace lv::core
