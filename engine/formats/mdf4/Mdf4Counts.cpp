// Channel values as counts: which integers are kept as stored (the step of the others: core::storedStepOf).
#include "formats/mdf4/Mdf4Counts.h"

#include "formats/mdf4/Mdf4Conversion.h"

#include <cmath>

namespace lv::formats::mdf4 {

namespace {

bool isInteger(DataType t)
{
    return t == DataType::UintLe || t == DataType::UintBe || t == DataType::IntLe || t == DataType::IntBe;
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

} // namespace lv::formats::mdf4
