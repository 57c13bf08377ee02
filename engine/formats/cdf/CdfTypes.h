// CDF data types and encodings: value sizes, names, and the byte order each encoding stores numbers in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace lv::formats::cdf {

// The CDF_* data type codes of VDRs and AEDRs.
enum DataType : std::int32_t {
    kInt1 = 1,
    kInt2 = 2,
    kInt4 = 4,
    kInt8 = 8,
    kUint1 = 11,
    kUint2 = 12,
    kUint4 = 14,
    kReal4 = 21,
    kReal8 = 22,
    kEpoch = 31,
    kEpoch16 = 32,
    kTimeTt2000 = 33,
    kByte = 41,
    kFloat = 44,
    kDouble = 45,
    kChar = 51,
    kUchar = 52,
};

// Bytes of one element of `type`; 0 for a code that is no CDF type.
std::size_t typeSize(std::int32_t type);
// "DOUBLE", "TIME_TT2000", "CHAR" (cdf-check's names); "type N" for an unknown code.
std::string typeName(std::int32_t type);
bool isText(std::int32_t type);
bool isEpoch(std::int32_t type);
// Numbers that are not epochs: integers, reals, BYTE.
bool isNumber(std::int32_t type);
bool isFloat(std::int32_t type);

enum class ByteOrder : std::uint8_t { Big, Little };

// The byte order of an encoding code (CDR `Encoding`); nullopt for the VAX and Alpha-VMS D/G float encodings,
// whose floats are not IEEE, and for unknown codes.
std::optional<ByteOrder> byteOrderOf(std::int32_t encoding);

} // namespace lv::formats::cdf
