// Channel values as counts: which integers are kept as stored, and the step of the others.
#include "formats/mdf4/Mdf4Counts.h"

#include "formats/mdf4/Mdf4Conversion.h"

#include <algorithm>
#include <cmath>

namespace lv::formats::mdf4 {

namespace {

bool isInteger(DataType t)
{
    return t == DataType::UintLe || t == DataType::UintBe || t == DataType::IntLe || t == DataType::IntBe;
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

bool isNumber(const Channel& c)
{
    return c.dataType <= DataType::FloatBe && c.kind != ChannelKind::Vlsd && !c.isMaster();
}

bool storedAsCounts(const Channel& c)
{
    if (!isInteger(c.dataType) || c.kind == ChannelKind::VirtualData) return false;
    const bool isSigned = c.dataType == DataType::IntLe || c.dataType == DataType::IntBe;
    if (c.bitCount > (isSigned ? 32u : 31u)) return false;
    if (!c.hasConversion || c.conversion->kind == ConversionKind::Identity || !isNumericConversion(*c.conversion))
        return true;
    const std::vector<double>& p = c.conversion->values;
    return c.conversion->kind == ConversionKind::Linear && p.size() >= 2 && std::isfinite(p[0]) &&
           std::isfinite(p[1]) && p[1] != 0.0;
}

core::QuantizationChoice quantizationOf(const std::vector<double>& values)
{
    core::QuantizationChoice q = core::chooseQuantization(values, 0.0);
    const double largest = largestMagnitude(values);
    if (q.exact && largest / q.factor < 0x1p27) return q;
    q.factor = floatStep(largest);
    q.exact = true;
    for (double v : values)
        if (std::isfinite(v) && std::round(v / q.factor) * q.factor != v) q.exact = false;
    return q;
}

} // namespace lv::formats::mdf4
