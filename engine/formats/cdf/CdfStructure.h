// The descriptor records of a CDF file: CDR, GDR, r and z VDRs with their VXR trees (the leaves, VVRs and CVVRs,
// by their headers only), CPRs, ADRs and AEDRs. A whole-file compressed CDF (a CCR) is inflated first.
#pragma once

#include "core/Error.h"
#include "formats/cdf/CdfCompression.h"
#include "formats/cdf/CdfImage.h"
#include "formats/cdf/CdfTypes.h"
#include "io/ByteSource.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lv::formats::cdf {

// Records [first, last] of a variable, stored in one VVR or (compressed) CVVR.
struct Leaf {
    std::int64_t first = 0, last = 0;
    std::uint64_t offset = 0;   // of the VVR or CVVR
    std::uint64_t dataAt = 0;   // of its values (a CVVR's compressed bytes)
    std::uint64_t dataSize = 0; // bytes of values stored there (compressed size for a CVVR)
    bool compressed = false;
};

struct Variable {
    std::string name;
    bool z = true;
    std::int32_t number = 0; // among the r or the z variables
    std::int32_t type = 0;
    std::int32_t numElems = 1; // characters of a CHAR value
    std::vector<std::int32_t> dims;
    std::vector<bool> dimVarys;
    bool recordVaries = true;
    std::int32_t maxRec = -1; // the last record written, -1 for none
    std::int32_t sparse = 0;  // 0 none, 1 pad, 2 previous
    std::int32_t compression = kNoCompression;
    std::int32_t compressionLevel = 0;
    std::vector<std::uint8_t> pad; // the pad value as stored, when the VDR holds one
    std::vector<Leaf> leaves;      // in record order, not overlapping
    std::uint64_t offset = 0;      // of the VDR

    std::int64_t records() const { return std::int64_t{maxRec} + 1; }
    // Records up to the last one a leaf holds (those after it are all pad values).
    std::int64_t heldRecords() const
    {
        const std::int64_t n = recordVaries ? records() : std::min<std::int64_t>(records(), 1);
        return leaves.empty() ? 0 : std::min(n, leaves.back().last + 1);
    }
    // Values in one record: the product of the dimensions that vary (a dimension that does not is stored once).
    std::size_t valuesPerRecord() const;
    std::size_t valueBytes() const { return typeSize(type) * static_cast<std::size_t>(numElems); }
    std::size_t recordBytes() const { return valuesPerRecord() * valueBytes(); }
};

struct Entry {
    std::int32_t number = 0; // the variable it describes (variable attributes), or the entry number
    bool z = false;          // describes a z variable
    std::int32_t type = 0;
    std::int32_t numElems = 0;
    std::vector<std::uint8_t> value; // numElems values as stored
};

struct Attribute {
    std::string name;
    bool global = true;
    std::vector<Entry> entries;
};

struct Structure {
    std::string path;
    int version = 0, release = 0, increment = 0;
    std::int32_t encoding = 0;
    ByteOrder order = ByteOrder::Big;
    bool rowMajor = true;
    std::string compression = "none"; // of the whole file: none, RLE or GZIP
    std::int32_t leapSecondLastUpdated = -1;
    std::vector<Variable> variables; // the r variables in number order, then the z variables
    std::vector<Attribute> attributes;

    const Attribute* attribute(std::string_view name) const;
    // The entry of a variable attribute that describes `v`, or nullptr.
    const Entry* entryOf(const Attribute& attribute, const Variable& v) const;
    const Variable* variable(std::string_view name) const;
};

core::Result<Structure> readStructure(const Image& image);

} // namespace lv::formats::cdf
