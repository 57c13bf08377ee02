// Conversions of raw values to physical values: identity, linear and rational so far.
#include "formats/mdf4/Mdf4Conversion.h"

#include <cmath>

namespace lv::formats::mdf4 {

bool isNumericConversion(const Conversion& cc)
{
    return cc.kind <= ConversionKind::Rational;
}

double convert(const Conversion& cc, double x)
{
    const std::vector<double>& p = cc.values;
    switch (cc.kind) {
    case ConversionKind::Identity:
        return x;
    case ConversionKind::Linear:
        return p.size() >= 2 ? p[0] + p[1] * x : std::nan("");
    case ConversionKind::Rational:
        return p.size() >= 6 ? (p[0] * (x * x) + p[1] * x + p[2]) / (p[3] * (x * x) + p[4] * x + p[5]) : std::nan("");
    default:
        return std::nan("");
    }
}

} // namespace lv::formats::mdf4
