// A variable's records read from the leaves that hold them (CVVRs inflated, kept in a small cache), and its values
// decoded from the file's encoding: numbers, epochs, texts and attribute entries.
#pragma once

#include "core/Error.h"
#include "formats/cdf/CdfStructure.h"

#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::cdf {

// Inflated CVVRs, newest first, within a byte budget; safe to use from several threads.
class LeafCache {
public:
    using Bytes = std::shared_ptr<const std::vector<std::uint8_t>>;
    explicit LeafCache(std::uint64_t budget = std::uint64_t{64} << 20) : m_budget(budget) {}
    Bytes find(std::uint64_t offset);
    void keep(std::uint64_t offset, Bytes bytes);

private:
    std::mutex m_mutex;
    std::list<std::pair<std::uint64_t, Bytes>> m_leaves;
    std::uint64_t m_bytes = 0, m_budget = 0;
};

// Reads records [first, first + count) of `v` into `out` (count * v.recordBytes() bytes, values as stored) and sets
// held[i] to 1 for each record the file holds (0 for records no leaf holds: sparse or never written).
core::Status readRecords(const io::ByteSource& image, const Variable& v, std::int64_t first, std::int64_t count,
                         std::span<std::uint8_t> out, std::span<std::uint8_t> held, LeafCache* cache);

// Where value `index` of a record (numbered in row-major order over the varying dimensions) is stored: the same
// index in a row-major file, the column-major one in a column-major file.
std::size_t storedIndex(const Variable& v, bool rowMajor, std::size_t index);

// One number of a numeric type at `p`, in the file's byte order, as a double (INT8 and UINT4 exactly up to 2^53).
double numberAt(std::int32_t type, ByteOrder order, const std::uint8_t* p);
// `count` numbers `stride` bytes apart.
void numbersAt(std::int32_t type, ByteOrder order, const std::uint8_t* p, std::size_t stride, std::size_t count,
               double* out);
// `count` epochs of `type` (EPOCH, EPOCH16, TT2000) `stride` bytes apart to ns since 1970 UTC (kNoTime for fill
// and pad values), through the SIMD kernels.
void epochsAt(std::int32_t type, ByteOrder order, const std::uint8_t* p, std::size_t stride, std::size_t count,
              std::int64_t* out);

// A text entry without its trailing NULs and blanks; empty for a non-text entry.
std::string entryText(const Entry& e);
// The first value of a numeric entry, converted to `asType` when given (a FILLVAL of another type than its
// variable's compares as the variable's type holds it); nullopt for text entries.
std::optional<double> entryNumber(const Entry& e, ByteOrder order, std::int32_t asType = 0);

} // namespace lv::formats::cdf
