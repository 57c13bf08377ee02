// CDF data types and encodings.
#include "formats/cdf/CdfTypes.h"

namespace lv::formats::cdf {

std::size_t typeSize(std::int32_t type)
{
    switch (type) {
    case kInt1:
    case kUint1:
    case kByte:
    case kChar:
    case kUchar:
        return 1;
    case kInt2:
    case kUint2:
        return 2;
    case kInt4:
    case kUint4:
    case kReal4:
    case kFloat:
        return 4;
    case kInt8:
    case kReal8:
    case kDouble:
    case kEpoch:
    case kTimeTt2000:
        return 8;
    case kEpoch16:
        return 16;
    default:
        return 0;
    }
}

std::string typeName(std::int32_t type)
{
    switch (type) {
    case kInt1:
        return "INT1";
    case kInt2:
        return "INT2";
    case kInt4:
        return "INT4";
    case kInt8:
        return "INT8";
    case kUint1:
        return "UINT1";
    case kUint2:
        return "UINT2";
    case kUint4:
        return "UINT4";
    case kReal4:
        return "REAL4";
    case kReal8:
        return "REAL8";
    case kEpoch:
        return "EPOCH";
    case kEpoch16:
        return "EPOCH16";
    case kTimeTt2000:
        return "TIME_TT2000";
    case kByte:
        return "BYTE";
    case kFloat:
        return "FLOAT";
    case kDouble:
        return "DOUBLE";
    case kChar:
        return "CHAR";
    case kUchar:
        return "UCHAR";
    default:
        return "type " + std::to_string(type);
    }
}

bool isText(std::int32_t type) { return type == kChar || type == kUchar; }

bool isEpoch(std::int32_t type) { return type == kEpoch || type == kEpoch16 || type == kTimeTt2000; }

bool isNumber(std::int32_t type) { return typeSize(type) != 0 && !isText(type) && !isEpoch(type); }

bool isFloat(std::int32_t type) { return type == kReal4 || type == kReal8 || type == kFloat || type == kDouble; }

std::optional<ByteOrder> byteOrderOf(std::int32_t encoding)
{
    switch (encoding) {
    case 1:  // NETWORK (XDR)
    case 2:  // SUN
    case 5:  // SGi
    case 7:  // IBMRS
    case 9:  // PPC
    case 11: // HP
    case 12: // NeXT
    case 18: // ARM_BIG
        return ByteOrder::Big;
    case 4:  // DECSTATION
    case 6:  // IBMPC
    case 13: // ALPHAOSF1
    case 16: // ALPHAVMSi
    case 17: // ARM_LITTLE
    case 19: // IA64VMSi
        return ByteOrder::Little;
    default: // 3 VAX, 14 ALPHAVMSd, 15 ALPHAVMSg, 20 IA64VMSd, 21 IA64VMSg: VAX floats
        return std::nullopt;
    }
}

} // namespace lv::formats::cdf
